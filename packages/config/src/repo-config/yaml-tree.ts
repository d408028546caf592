// Reads the YAML text into a small tree of positions, in time proportional to its size.
// js-yaml's `parseEvents` does the reading (a flat list of events with source offsets, nesting
// capped by `maxDepth`, so no stack overflow); this file turns the events into nodes that know
// where they start, and the key each mapping entry becomes in JavaScript. The data itself is
// built later, from the same events, by `constructData`, once the tree has passed the
// structural checks (document-index.ts): so aliases cannot blow up what is built.
import {
  CORE_SCHEMA,
  EVENT_ID,
  NOT_RESOLVED,
  SCALAR_STYLE,
  YAMLException,
  constructFromEvents,
  getScalarValue,
  parseEvents,
  type Event,
  type ScalarEvent,
  type ScalarTagDefinition,
} from "js-yaml";

export interface YamlScalar {
  kind: "scalar";
  start: number;
  /** The source of the scalar, quotes included. */
  end: number;
}
export interface YamlMap {
  kind: "map";
  start: number;
  pairs: YamlPair[];
}
export interface YamlSeq {
  kind: "seq";
  start: number;
  items: YamlNode[];
}
export interface YamlAlias {
  kind: "alias";
  start: number;
}
export type YamlNode = YamlScalar | YamlMap | YamlSeq | YamlAlias;

export interface YamlPair {
  key: YamlNode;
  /** The property name the key becomes in JavaScript; null when the key is not a plain scalar. */
  name: string | null;
  value: YamlNode;
}

export interface YamlProblem {
  offset: number;
  message: string;
}

export interface YamlTree {
  /** Null for an empty document. */
  root: YamlNode | null;
  events: Event[];
  aliases: number;
  /** How many nodes the data has once every alias is expanded. */
  expandedSize: number;
}

export type ReadYamlResult = { ok: true; tree: YamlTree } | { ok: false; problem: YamlProblem };

export interface ReadYamlLimits {
  /** Deepest nesting of lists and maps. */
  maxDepth: number;
  /** Most nodes the data may have once aliases are expanded (an alias repeats its target). */
  maxExpandedSize: number;
}

/** The schema's implicit scalar types (null, bool, int, float), in the order it tries them. */
const implicitScalarTags = CORE_SCHEMA.tags.filter(
  (tag): tag is ScalarTagDefinition => tag.nodeKind === "scalar" && tag.implicit,
);

/** The property name a scalar key becomes, resolved by the same schema as the data. */
function keyNameOf(text: string, event: ScalarEvent): string {
  const value = getScalarValue(text, event);
  if (event.style !== SCALAR_STYLE.PLAIN) return value;
  for (const tag of implicitScalarTags) {
    const resolved = tag.resolve(value, false, tag.tagName);
    if (resolved !== NOT_RESOLVED) return String(resolved);
  }
  return value;
}

function scalarNode(event: ScalarEvent): YamlScalar {
  const quoted =
    event.style === SCALAR_STYLE.SINGLE_QUOTED || event.style === SCALAR_STYLE.DOUBLE_QUOTED;
  return quoted
    ? { kind: "scalar", start: event.valueStart - 1, end: event.valueEnd + 1 }
    : { kind: "scalar", start: event.valueStart, end: event.valueEnd };
}

class ReadStop extends Error {
  constructor(readonly problem: YamlProblem) {
    super(problem.message);
  }
}

interface Open {
  node: YamlMap | YamlSeq;
  size: number;
  anchor: string | null;
  /** A mapping's key waiting for its value. */
  pendingKey: { key: YamlNode; name: string | null } | null;
}

/** Builds the tree from the events of one document; a second document stops the read. */
class TreeBuilder {
  root: YamlNode | null = null;
  aliases = 0;
  expandedSize = 0;
  private readonly stack: Open[] = [];
  /** Expanded size of each anchored node; absent while the node is still open. */
  private readonly anchors = new Map<string, number>();
  private readonly openAnchors = new Set<string>();
  private documents = 0;

  constructor(
    private readonly text: string,
    private readonly limits: ReadYamlLimits,
  ) {}

  add(event: Event): void {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        if (++this.documents > 1) this.secondDocument(event);
        return;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        const node: YamlMap | YamlSeq =
          event.type === EVENT_ID.MAPPING
            ? { kind: "map", start: event.start, pairs: [] }
            : { kind: "seq", start: event.start, items: [] };
        const anchor = this.anchorOf(event);
        if (anchor !== null) this.openAnchors.add(anchor);
        this.stack.push({ node, size: 1, anchor, pendingKey: null });
        return;
      }
      case EVENT_ID.SCALAR:
        this.anchorDone(this.anchorOf(event), 1);
        this.attach(scalarNode(event), 1, event);
        return;
      case EVENT_ID.ALIAS:
        this.alias(event.anchorStart, event.anchorEnd);
        return;
      case EVENT_ID.POP: {
        const open = this.stack.pop();
        if (!open) return; // the end of the document
        this.anchorDone(open.anchor, open.size);
        this.attach(open.node, open.size, null);
      }
    }
  }

  private anchorOf(event: { anchorStart: number; anchorEnd: number }): string | null {
    return event.anchorStart < 0 ? null : this.text.slice(event.anchorStart, event.anchorEnd);
  }

  private anchorDone(anchor: string | null, size: number): void {
    if (anchor === null) return;
    this.openAnchors.delete(anchor);
    this.anchors.set(anchor, size);
  }

  private alias(nameStart: number, nameEnd: number): void {
    const name = this.text.slice(nameStart, nameEnd);
    const start = nameStart - 1;
    if (this.openAnchors.has(name)) {
      this.stop(start, `the alias *${name} is inside the node it refers to; remove it`);
    }
    this.aliases++;
    this.attach({ kind: "alias", start }, this.anchors.get(name) ?? 1, null);
  }

  /** Adds a finished node to the open collection (or makes it the root). */
  private attach(node: YamlNode, size: number, scalar: ScalarEvent | null): void {
    const parent = this.stack[this.stack.length - 1];
    if (!parent) {
      this.root = node;
      this.expandedSize = size;
      this.checkSize(node.start);
      return;
    }
    parent.size += size;
    if (parent.size > this.limits.maxExpandedSize) this.checkSize(node.start, parent.size);
    if (parent.node.kind === "seq") {
      parent.node.items.push(node);
    } else if (parent.pendingKey === null) {
      const plain = scalar !== null && scalar.tagStart < 0;
      parent.pendingKey = { key: node, name: plain ? keyNameOf(this.text, scalar) : null };
    } else {
      parent.node.pairs.push({ ...parent.pendingKey, value: node });
      parent.pendingKey = null;
    }
  }

  private checkSize(offset: number, size = this.expandedSize): void {
    if (size <= this.limits.maxExpandedSize) return;
    this.stop(
      offset,
      `aliases (*name) expand the file to more than ${this.limits.maxExpandedSize} values; repeat less through aliases`,
    );
  }

  private secondDocument(_event: Event): void {
    // A document event carries no offset: the marker is the last `---` line before the end.
    const marker = this.text.lastIndexOf("\n---");
    const message = "the file holds a second YAML document (after `---`); keep one document";
    this.stop(marker < 0 ? 0 : marker + 1, message);
  }

  private stop(offset: number, message: string): never {
    throw new ReadStop({ offset, message });
  }
}

function depthMessage(maxDepth: number): string {
  return `the YAML is nested more than ${maxDepth} levels deep here; a .secondshift.yaml needs fewer than 10`;
}

/** Reads `text` as one YAML 1.2 document (core schema); the first problem stops the read. */
export function readYamlTree(text: string, limits: ReadYamlLimits): ReadYamlResult {
  try {
    const events = parseEvents(text, { maxDepth: limits.maxDepth });
    const builder = new TreeBuilder(text, limits);
    for (const event of events) builder.add(event);
    const { root, aliases, expandedSize } = builder;
    return { ok: true, tree: { root, events, aliases, expandedSize } };
  } catch (error) {
    if (error instanceof ReadStop) return { ok: false, problem: error.problem };
    if (!(error instanceof YAMLException)) throw error;
    const offset = error.mark?.position ?? 0;
    const message = error.reason.startsWith("nesting exceeded maxDepth")
      ? depthMessage(limits.maxDepth)
      : `YAML syntax error: ${error.reason}`;
    return { ok: false, problem: { offset, message } };
  }
}

/**
 * The document's data, built from the tree's events. Duplicate keys were refused on the tree
 * (naming both lines), so js-yaml's JSON mode is used only to not stop at the first one again.
 */
export function constructData(
  text: string,
  tree: YamlTree,
): { ok: true; data: unknown } | { ok: false; problem: YamlProblem } {
  try {
    const [data] = constructFromEvents(tree.events, {
      source: text,
      schema: CORE_SCHEMA,
      json: true,
    });
    return { ok: true, data };
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    const message = `the YAML could not be read: ${error.reason}`;
    return { ok: false, problem: { offset: error.mark?.position ?? 0, message } };
  }
}
