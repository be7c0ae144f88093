/**
 * One streamed Messages API request. Each content block is handed on the moment it is complete,
 * so tools can start while the model is still writing the rest of its answer.
 */
import type Anthropic from "@anthropic-ai/sdk";

export type ApiMessage = Anthropic.Messages.Message;
export type ApiContentBlock = Anthropic.Messages.ContentBlock;

export interface ModelTurnRequest {
  client: Anthropic;
  params: Anthropic.Messages.MessageStreamParams;
  signal: AbortSignal;
  /** Called once per completed block, with the message it belongs to (id, model, usage so far). */
  onBlock: (block: ApiContentBlock, message: ApiMessage) => void;
}

export async function streamModelTurn(request: ModelTurnRequest): Promise<ApiMessage> {
  const stream = request.client.messages.stream(request.params, { signal: request.signal });
  stream.on("contentBlock", (block) => {
    const message = stream.currentMessage;
    if (message) request.onBlock(block, message);
  });
  return await stream.finalMessage();
}
