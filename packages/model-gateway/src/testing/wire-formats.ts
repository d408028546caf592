// Responses exactly as the real APIs shape them (fields, event names, usage placement), so
// the gateway's parsing and the official SDKs are exercised against the real wire formats.
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
export const sse = (event: string | null, data: unknown) =>
  `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

export function anthropicMessage(model: string, u: Usage) {
  return {
    id: "msg_scripted01",
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text: words(u.output).join(" ") }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: u.input,
      cache_creation_input_tokens: u.cacheWrite,
      cache_read_input_tokens: u.cacheRead,
      output_tokens: u.output,
    },
  };
}

/** Anthropic stream: usage in message_start, then *cumulative* usage in message_delta. */
export function anthropicEvents(model: string, u: Usage, extraDeltas = 0): string[] {
  const events = [
    sse("message_start", {
      type: "message_start",
      message: {
        ...anthropicMessage(model, u),
        content: [],
        stop_reason: null,
        usage: {
          input_tokens: u.input,
          cache_creation_input_tokens: u.cacheWrite,
          cache_read_input_tokens: u.cacheRead,
          output_tokens: 1,
        },
      },
    }),
    sse("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }),
    sse("ping", { type: "ping" }),
  ];
  for (const w of words(u.output)) {
    events.push(
      sse("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: `${w} ` },
      }),
    );
  }
  events.push(sse("content_block_stop", { type: "content_block_stop", index: 0 }));
  // Real streams may repeat message_delta with growing cumulative counts; never sum them.
  for (let i = extraDeltas; i > 0; i -= 1) {
    events.push(
      sse("message_delta", {
        type: "message_delta",
        delta: { stop_reason: null, stop_sequence: null },
        usage: { output_tokens: Math.max(1, u.output - i) },
      }),
    );
  }
  events.push(
    sse("message_delta", {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: u.output },
    }),
  );
  events.push(sse("message_stop", { type: "message_stop" }));
  return events;
}

function openaiUsage(u: Usage) {
  return {
    prompt_tokens: u.input + u.cacheRead,
    completion_tokens: u.output,
    total_tokens: u.input + u.cacheRead + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** `n` choices share u.output equally (the API reports completion tokens summed over them). */
export function chatCompletion(model: string, u: Usage, n = 1) {
  return {
    id: "chatcmpl-scripted01",
    object: "chat.completion",
    created: 1764460800,
    model,
    choices: Array.from({ length: n }, (_, index) => ({
      index,
      message: {
        role: "assistant",
        content: words(Math.floor(u.output / n)).join(" "),
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: "stop",
    })),
    usage: openaiUsage(u),
    service_tier: "default",
    system_fingerprint: null,
  };
}

/** OpenAI chat stream: with include_usage every chunk has usage: null and a last chunk has it. */
export function chatEvents(model: string, u: Usage, includeUsage: boolean): string[] {
  const base = {
    id: "chatcmpl-scripted01",
    object: "chat.completion.chunk",
    created: 1764460800,
    model,
    system_fingerprint: null,
  };
  const chunk = (choices: unknown[]) =>
    sse(null, { ...base, choices, ...(includeUsage ? { usage: null } : {}) });
  const events = [
    chunk([
      {
        index: 0,
        delta: { role: "assistant", content: "", refusal: null },
        logprobs: null,
        finish_reason: null,
      },
    ]),
  ];
  for (const w of words(u.output))
    events.push(
      chunk([{ index: 0, delta: { content: `${w} ` }, logprobs: null, finish_reason: null }]),
    );
  events.push(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }]));
  if (includeUsage) events.push(sse(null, { ...base, choices: [], usage: openaiUsage(u) }));
  events.push(sse(null, "[DONE]"));
  return events;
}

export function response(model: string, u: Usage, status = "completed") {
  return {
    id: "resp_scripted01",
    object: "response",
    created_at: 1764460800,
    status,
    error: null,
    incomplete_details: null,
    model,
    output: [
      {
        type: "message",
        id: "msg_scripted01",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: words(u.output).join(" "), annotations: [] }],
      },
    ],
    parallel_tool_calls: true,
    usage:
      status === "in_progress"
        ? null
        : {
            input_tokens: u.input + u.cacheRead,
            input_tokens_details: { cached_tokens: u.cacheRead },
            output_tokens: u.output,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: u.input + u.cacheRead + u.output,
          },
  };
}

/** OpenAI responses stream: usage only in response.completed. */
export function responseEvents(model: string, u: Usage): string[] {
  let seq = 0;
  const ev = (type: string, rest: Record<string, unknown>) =>
    sse(type, { type, sequence_number: seq++, ...rest });
  const inProgress = { ...response(model, u, "in_progress"), output: [] };
  const events = [
    ev("response.created", { response: inProgress }),
    ev("response.in_progress", { response: inProgress }),
  ];
  for (const w of words(u.output)) {
    events.push(
      ev("response.output_text.delta", {
        item_id: "msg_scripted01",
        output_index: 0,
        content_index: 0,
        delta: `${w} `,
        logprobs: [],
      }),
    );
  }
  events.push(ev("response.completed", { response: response(model, u) }));
  return events;
}
