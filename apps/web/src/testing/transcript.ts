// A long run transcript in a few statements, for the browser tests and bench:web: `count`
// events appended after the run's last one, in batches, with the run's event counter moved
// past them (as appendRunEvent would leave it, so later live appends continue the seqs).
import type { Db, Prisma } from "@secondshift/db";

export interface SeededEvent {
  type: string;
  payload: Prisma.InputJsonValue;
}

const BATCH = 1_000;

export async function seedTranscript(
  db: Db,
  run: { id: string; workspaceId: string },
  count: number,
  event: (n: number) => SeededEvent,
): Promise<void> {
  for (let from = 0; from < count; from += BATCH) {
    const size = Math.min(BATCH, count - from);
    await db.$transaction(async (tx) => {
      const { lastEventSeq } = await tx.run.update({
        where: { id: run.id },
        data: { lastEventSeq: { increment: size } },
        select: { lastEventSeq: true },
      });
      const first = lastEventSeq - size + 1;
      await tx.runEvent.createMany({
        data: Array.from({ length: size }, (_, i) => ({
          workspaceId: run.workspaceId,
          runId: run.id,
          seq: first + i,
          ...event(from + i),
        })),
      });
    });
  }
}

/** A mixed conversation line: model text, a command, its output, a status-free message. */
export function conversationEvent(n: number): SeededEvent {
  switch (n % 4) {
    case 0:
      return { type: "message", payload: { text: `Event ${n}: reading the code` } };
    case 1:
      return {
        type: "tool_call",
        payload: { turn: n, callId: `c${n}`, name: "shell", arguments: { command: `echo ${n}` } },
      };
    case 2:
      return {
        type: "tool_result",
        payload: {
          turn: n,
          callId: `c${n - 1}`,
          name: "shell",
          isError: false,
          truncated: false,
          content: `<untrusted-data source="tool:shell">\nexit code: 0\n--- stdout ---\n${n}\n</untrusted-data>`,
        },
      };
    default:
      return {
        type: "model_turn",
        payload: {
          turn: n,
          text: `Turn ${n}: ${"the output looks right. ".repeat(1 + (n % 5))}`,
          stopReason: "tool_use",
          toolCalls: [{ id: `c${n}`, name: "shell", arguments: { command: "ls" } }],
          usage: { inputTokens: 100, outputTokens: 20 },
        },
      };
  }
}
