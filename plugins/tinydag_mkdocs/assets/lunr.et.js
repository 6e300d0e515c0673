/* Estonian for Material's lunr search worker (lunr ships no Estonian stemmer). Loaded by the worker
 * as lunr.et.min.js when the index's config says lang: ["et"] (see search_lang.py).
 *
 * Material searches every query term as a prefix ("gradient*"), and lunr skips its pipeline for such
 * terms, so a stemmer on the index side would not help an inflected query. Instead the index keeps
 * whole words, and a query term is cut to its stem first: "gradientidega" searches "gradient*",
 * "ahelreeglit" searches "ahelreeg*", "liivakastis" searches "liivakast*"; every form that starts
 * with the stem then matches. The endings are common case and plural endings; a stem keeps at least
 * four letters. */
(function () {
  var lunr = self.lunr;
  var ENDINGS = ["idega", "dega", "tega", "ides", "iks", "ile", "ilt", "ina", "ita", "sse", "de", "te",
    "id", "ni", "na", "ta", "ga", "st", "le", "lt", "ks", "s", "l", "d", "t", "i", "e", "u"];
  var MIN_STEM = 4;

  function stem(word) {
    for (var pass = 0; pass < 2; pass++) {
      var cut = false;
      for (var i = 0; i < ENDINGS.length; i++) {
        var ending = ENDINGS[i];
        if (word.length - ending.length >= MIN_STEM && word.slice(-ending.length) === ending) {
          word = word.slice(0, -ending.length);
          cut = true;
          break;
        }
      }
      if (!cut) break;
    }
    return word;
  }

  var trimmer = function (token) {
    return token.update(function (s) { return s.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""); });
  };
  lunr.Pipeline.registerFunction(trimmer, "trimmer-et");

  lunr.et = function () {
    this.pipeline.reset();
    this.pipeline.add(trimmer);
    this.searchPipeline.reset();
  };
  lunr.et.trimmer = trimmer;
  lunr.et.stem = stem;

  // Query terms: "gradientidega*" -> "gradient*" (the leading/trailing wildcards are kept).
  var parseTerm = lunr.QueryParser.parseTerm;
  lunr.QueryParser.parseTerm = function (parser) {
    var lexeme = parser.peekLexeme();
    if (lexeme && typeof lexeme.str === "string") {
      var m = /^(\*?)(.*?)(\*?)$/.exec(lexeme.str.toLowerCase());
      if (m && /^[\p{L}]+$/u.test(m[2])) lexeme.str = m[1] + stem(m[2]) + m[3];
    }
    return parseTerm(parser);
  };
})();
