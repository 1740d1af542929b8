/**
 * Issue 29, item 6: JSDoc on every public export. The public surface is what the four package
 * entries export. For each, every exported symbol (an alias resolved to its declaration) has a doc
 * comment, and so does every member of an exported interface, object type or class, and of the
 * object types those members hold (options a host passes, results it reads), since an editor
 * tooltip is where a host developer reads them. Members declared outside src/ (Array's methods,
 * Error's `message`) and symbol-keyed ones (`[Symbol.asyncIterator]`) are not ours to document; a
 * member inherited from a documented declaration, or carried through Omit/Pick, counts as documented.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const ENTRIES: Record<string, string> = {
  'find-file': 'index.ts',
  'find-file/agent': 'agent/index.ts',
  'find-file/tinyglobby': 'compat/tinyglobby.ts',
  'find-file/glob': 'compat/glob.ts',
};

const program = ts.createProgram(
  Object.values(ENTRIES).map((file) => SRC + file),
  { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: ['node'], noEmit: true },
);
const checker = program.getTypeChecker();

const hasDoc = (symbol: ts.Symbol): boolean => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() !== '';
const isOurs = (symbol: ts.Symbol): boolean => (symbol.declarations ?? []).some((d) => d.getSourceFile().fileName.startsWith(SRC));
const resolve = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

function exportsOf(file: string): ts.Symbol[] {
  const source = program.getSourceFile(SRC + file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`no module for ${file}`);
  return checker.getExportsOfModule(module);
}

/** The object types a value of `type` may be: union members and array elements taken apart, functions and primitives left out. */
function objectTypes(type: ts.Type): ts.Type[] {
  if (type.isUnion() || type.isIntersection()) return type.types.flatMap(objectTypes);
  if (checker.isArrayType(type) || checker.isTupleType(type)) return checker.getTypeArguments(type as ts.TypeReference).flatMap(objectTypes);
  if (!(type.flags & ts.TypeFlags.Object) || type.getCallSignatures().length > 0) return [];
  return [type];
}

/** Every undocumented member of `type`, and of the object types its members hold, as `Name.member.sub`. */
function missingMembers(type: ts.Type, name: string, seen: Set<ts.Type>, documented: Set<ts.Symbol>): string[] {
  if (seen.has(type)) return [];
  seen.add(type);
  return checker.getPropertiesOfType(type).flatMap((member) => {
    // `#private` fields are no one's API but the class's own.
    if (member.name.startsWith('__@') || member.name.startsWith('#') || !isOurs(member)) return [];
    const path = `${name}.${member.name}`;
    const own = hasDoc(member) ? [] : [path];
    const nested = objectTypes(checker.getTypeOfSymbol(member)).filter((t) => !t.symbol || !documented.has(t.symbol));
    return [...own, ...nested.flatMap((t) => missingMembers(t, path, seen, documented))];
  });
}

/** The types whose members a host reads: what an interface, type alias or class declares. */
function declaredType(symbol: ts.Symbol): ts.Type | undefined {
  const kinds = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class;
  return symbol.flags & kinds ? checker.getDeclaredTypeOfSymbol(symbol) : undefined;
}

function undocumented(): string[] {
  const exported = Object.entries(ENTRIES).flatMap(([entry, file]) => exportsOf(file).map((symbol) => ({ entry, name: symbol.name, symbol: resolve(symbol) })));
  // A type exported by any entry is checked under its own name, not again under every member that holds it.
  const documented = new Set(exported.map((e) => e.symbol));
  const found = exported.flatMap(({ entry, name, symbol }) => {
    const own = hasDoc(symbol) ? [] : [`${entry}: ${name}`];
    const type = declaredType(symbol);
    const members = type ? objectTypes(type).flatMap((t) => missingMembers(t, name, new Set(), documented)) : [];
    return [...own, ...members.map((m) => `${entry}: ${m}`)];
  });
  // A union's branches may share a member (`metadata` of a result and of an error): name it once.
  return [...new Set(found)];
}

describe('API docs (issue 29, item 6)', () => {
  it('every public export of the four entries, and every member of its object types, has a doc comment', () => {
    expect(undocumented()).toEqual([]);
  });

  it('the check finds what it should: exports and members from every entry are seen', () => {
    const names = Object.values(ENTRIES).map((file) => exportsOf(file).map((s) => s.name));
    expect(names[0]).toEqual(expect.arrayContaining(['findFiles', 'FindOptions', 'FindFileError']));
    expect(names[1]).toEqual(expect.arrayContaining(['globTool', 'grepTool', 'ToolContext']));
    expect(names[2]).toEqual(expect.arrayContaining(['glob', 'globSync', 'GlobOptions']));
    expect(names[3]).toEqual(expect.arrayContaining(['glob', 'globSync', 'GlobOptions']));
  });
});
