// Checks that Julia files parse, with the tree-sitter Julia grammar running in web-tree-sitter (WebAssembly),
// since Julia itself is not installed on the build machines. Any ERROR or MISSING node fails the check.
//
//   node parse_check.mjs DIR_OR_FILE...   check every .jl file under the arguments (node_modules skipped)
//   node parse_check.mjs --self-test      check that the checker tells a broken file from a good one
//
// Exit status: 0 all files parse, 1 a parse error (each printed as file:line:column), 2 a usage/setup problem.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

async function loadParser() {
  let Parser, Language;
  try {
    ({ Parser, Language } = await import('web-tree-sitter'));
  } catch (e) {
    console.error(`parse_check: web-tree-sitter is not installed in ${here}/node_modules ` +
                  `(run: npm ci --prefix ${here}, or scripts/setup.d/julia-grammar.sh)`);
    process.exit(2);
  }
  await Parser.init();
  const grammar = join(here, 'node_modules', 'tree-sitter-julia', 'tree-sitter-julia.wasm');
  const julia = await Language.load(grammar);
  const parser = new Parser();
  parser.setLanguage(julia);
  return parser;
}

// Every ERROR or MISSING node of a tree, as "line:column: what".
function problems(tree) {
  const found = [];
  const walk = (node) => {
    if (node.isError || node.isMissing) {
      const p = node.startPosition;
      const what = node.isMissing ? `missing ${node.type}` : `syntax error near ${JSON.stringify(
        node.text.length > 40 ? node.text.slice(0, 40) + '...' : node.text)}`;
      found.push(`${p.row + 1}:${p.column + 1}: ${what}`);
      if (node.isError) return;  // one report per error region
    }
    if (!node.hasError && !node.isMissing) return;  // nothing wrong below
    for (let i = 0; i < node.childCount; i++) walk(node.child(i));
  };
  walk(tree.rootNode);
  if (tree.rootNode.hasError && found.length === 0) found.push('1:1: syntax error');
  return found;
}

function juliaFiles(path) {
  const st = statSync(path);
  if (st.isFile()) return path.endsWith('.jl') ? [path] : [];
  const out = [];
  for (const name of readdirSync(path).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    out.push(...juliaFiles(join(path, name)));
  }
  return out;
}

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node parse_check.mjs DIR_OR_FILE... | --self-test');
  process.exit(2);
}
const parser = await loadParser();

if (args[0] === '--self-test') {
  const good = 'function f(x::Array{T,3}) where {T}\n    ccall(p, Cint, (Ptr{T},), x)\nend\n';
  const broken = [
    'function f(x)\n    x +\nend\n',             // incomplete expression
    'struct S\n    a::Int\n',                   // missing end
    'g(x) = (x, [1, 2)\n',                       // unbalanced brackets
  ];
  let ok = problems(parser.parse(good)).length === 0;
  for (const src of broken) ok = ok && problems(parser.parse(src)).length > 0;
  console.log(ok ? 'parse_check self-test: passed' : 'parse_check self-test: FAILED');
  process.exit(ok ? 0 : 1);
}

let files = [];
for (const a of args) files.push(...juliaFiles(a));
if (files.length === 0) {
  console.error('parse_check: no .jl files found in ' + args.join(' '));
  process.exit(2);
}
let bad = 0;
for (const file of files) {
  const tree = parser.parse(readFileSync(file, 'utf8'));
  const found = problems(tree);
  const name = relative(process.cwd(), file) || file;
  if (found.length) {
    bad++;
    for (const p of found) console.log(`${name}:${p}`);
  } else {
    console.log(`${name}: ok`);
  }
}
console.log(`parse_check: ${files.length - bad} of ${files.length} Julia files parse`);
process.exit(bad ? 1 : 0);
