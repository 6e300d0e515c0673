// The functions and types of TypeScript files, in source order, as JSON on stdout:
// {file: {functions: [name, ...], types: [name, ...]}}. tests/test_mirrors.py compares them with their
// Python mirrors. Functions: top-level functions, top-level consts bound to arrow functions, and the
// methods and getters of top-level classes. Types: classes, interfaces and type aliases.
import { readFileSync } from "node:fs";
import ts from "typescript";

const names = (file) => {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const found = [];
  const types = [];
  for (const statement of source.statements) {
    if (
      (ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isClassDeclaration(statement)) &&
      statement.name
    )
      types.push(statement.name.text);
    if (ts.isFunctionDeclaration(statement) && statement.name) found.push(statement.name.text);
    else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (d.initializer && ts.isArrowFunction(d.initializer) && ts.isIdentifier(d.name))
          found.push(d.name.text);
      }
    } else if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        if ((ts.isMethodDeclaration(member) || ts.isGetAccessorDeclaration(member)) && member.name) {
          found.push(member.name.getText(source));
        }
      }
    }
  }
  return { functions: found, types };
};

process.stdout.write(JSON.stringify(Object.fromEntries(process.argv.slice(2).map((f) => [f, names(f)]))));
