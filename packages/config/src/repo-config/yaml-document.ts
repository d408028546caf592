// Reads the YAML text into one document, in time proportional to its size.
// `parseDocument` would do the same three steps (lexer → parser → composer), but the parser's
// work per token grows with the nesting depth (a file of 100,000 `[` takes seconds and ends in a
// stack overflow). So the steps are driven here, and reading stops as soon as the parser's stack
// is deeper than any valid `.secondshift.yaml` can be.
import { Composer, Lexer, LineCounter, Parser, type Document, type YAMLError } from "yaml";

export interface YamlProblem {
  offset: number;
  message: string;
}

export type ReadYamlResult =
  | { ok: true; doc: Document; lineCounter: LineCounter; problems: YamlProblem[] }
  | { ok: false; lineCounter: LineCounter; problems: YamlProblem[] };

class TooDeep extends Error {
  constructor(readonly offset: number) {
    super("too deep");
  }
}

function* guardedTokens(text: string, parser: Parser, lineCounter: LineCounter, maxDepth: number) {
  lineCounter.addNewLine(0); // what Parser.parse does before the first token
  for (const lexeme of new Lexer().lex(text)) {
    const offset = parser.offset;
    yield* parser.next(lexeme);
    if (parser.stack.length > maxDepth) throw new TooDeep(offset);
  }
  yield* parser.end();
}

const problemOf = (error: YAMLError): YamlProblem => ({
  offset: error.pos[0],
  message: error.message,
});

type Composed =
  | { doc: Document | undefined; lineCounter: LineCounter; problems: YamlProblem[] }
  | { tooDeepAt: number; lineCounter: LineCounter };

function compose(text: string, maxDepth: number): Composed {
  const lineCounter = new LineCounter();
  const parser = new Parser(lineCounter.addNewLine);
  const composer = new Composer({ strict: true, uniqueKeys: false, version: "1.2" });
  const tokens = guardedTokens(text, parser, lineCounter, maxDepth);
  let doc: Document | undefined;
  const problems: YamlProblem[] = [];
  try {
    for (const next of composer.compose(tokens, true, text.length)) {
      if (doc) {
        const message = "the file holds a second YAML document (after `---`); keep one document";
        problems.push({ offset: next.range[0], message });
        break;
      }
      doc = next;
    }
  } catch (error) {
    if (error instanceof TooDeep) return { tooDeepAt: error.offset, lineCounter };
    throw error;
  }
  return { doc, lineCounter, problems: [...(doc?.errors.map(problemOf) ?? []), ...problems] };
}

/**
 * Lexes, parses and composes `text` as YAML 1.2 (strict; duplicate keys are left to the caller,
 * which compares them after conversion). Nesting beyond `maxDepth` stops reading.
 */
export function readYamlDocument(text: string, maxDepth: number): ReadYamlResult {
  // Each problem is an Error object; capturing its stack trace is most of the time spent on a
  // file with 100,000 syntax errors (1.4 s → 0.3 s). Nothing else runs during this synchronous
  // call, and the limit is restored before returning.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return readWithinDepth(text, maxDepth);
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

function readWithinDepth(text: string, maxDepth: number): ReadYamlResult {
  const read = compose(text, maxDepth);
  if (!("tooDeepAt" in read)) {
    const { doc, lineCounter, problems } = read;
    return doc ? { ok: true, doc, lineCounter, problems } : { ok: false, lineCounter, problems };
  }
  const tooDeep = {
    offset: read.tooDeepAt,
    message: `the YAML is nested more than ${maxDepth} levels deep here; a .secondshift.yaml needs fewer than 10`,
  };
  // Broken lines before that point often are the cause (each opens a level that never closes):
  // the text up to there is read again, within the depth limit, to report them too.
  const before = compose(text.slice(0, read.tooDeepAt), maxDepth);
  if ("tooDeepAt" in before)
    return { ok: false, lineCounter: read.lineCounter, problems: [tooDeep] };
  return { ok: false, lineCounter: before.lineCounter, problems: [...before.problems, tooDeep] };
}
