// The untrusted-data block every tool result reaches the model in (P01; written by the agent's
// wrapUntrusted): `<untrusted-data source="tool:NAME">\n…\n</untrusted-data>`. The transcript
// stores what the model saw; people read the content with its source as a label, not the tag.
export const UNTRUSTED_DATA_TAG = "untrusted-data";

const BLOCK = new RegExp(
  `^<${UNTRUSTED_DATA_TAG} source="([A-Za-z0-9_:.-]*)">\\n([\\s\\S]*)\\n</${UNTRUSTED_DATA_TAG}>$`,
);

/**
 * The block's source and content, or null when `text` is not exactly one block (then it is
 * shown as it is). The content's own tags were neutralised by the writer, so the only closing
 * tag is the last one.
 */
export function readUntrustedBlock(text: string): { source: string; content: string } | null {
  const match = BLOCK.exec(text);
  return match ? { source: match[1] ?? "", content: match[2] ?? "" } : null;
}
