/* A language for Material's lunr search worker that lunr-languages does not ship (search_lang.py writes
 * it as lunr.<lang>.min.js, with "__LANG__" replaced by the language's code). Words keep every letter
 * and digit of any script (the default trimmer would strip all but A-Z, and so every Cyrillic or
 * accented word); no stop words and no stemmer: Material searches every term as a prefix. */
(function () {
  var lunr = self.lunr;
  var name = "__LANG__";
  var trimmer = function (token) {
    return token.update(function (s) { return s.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""); });
  };
  lunr.Pipeline.registerFunction(trimmer, "trimmer-" + name);
  lunr[name] = function () {
    this.pipeline.reset();
    this.pipeline.add(trimmer);
    this.searchPipeline.reset();
  };
  lunr[name].trimmer = trimmer;
})();
