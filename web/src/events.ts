// A Server-Sent Events reader over fetch that survives a dropped connection: unlike EventSource it sends
// the stream's resume point (Last-Event-ID) on every reconnect, backs off while the server cannot be
// reached, treats a silent connection (no keep-alive for a while) or the browser going offline as
// dropped, and says when the connection is lost and back.
import { ApiError, reach } from "./api";

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 15_000;
const SILENCE_MS = 40_000;   // the server sends a keep-alive every 15 s

export interface StreamHooks {
  onEvent: (event: string, data: unknown) => void;
  /** false: the connection dropped and is being retried; true: it is back. */
  onConnection: (connected: boolean) => void;
  /** The server refused the stream (a 4xx answer): it is not retried. */
  onRefused: (error: ApiError) => void;
}

/** Follows `url` until the returned function is called (or the server refuses it). */
export function followEvents(url: string, hooks: StreamHooks): () => void {
  const follower = new EventFollower(url, hooks);
  void follower.run();
  return () => follower.stop();
}

class EventFollower {
  private stopped = false;
  private lastId: string | null = null;
  private current: AbortController | null = null;
  private wake: (() => void) | null = null;
  // offline: the open connection is dead even if no error says so yet; online: try at once
  private readonly offline = () => this.current?.abort();
  private readonly online = () => this.wake?.();

  constructor(private readonly url: string, private readonly hooks: StreamHooks) {
    window.addEventListener("offline", this.offline);
    window.addEventListener("online", this.online);
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener("offline", this.offline);
    window.removeEventListener("online", this.online);
    this.current?.abort();
    this.wake?.();
  }

  async run(): Promise<void> {
    let pause = FIRST_RETRY_MS;
    while (!this.stopped) {
      try {
        if (await this.connectOnce() === "refused") return;
        pause = FIRST_RETRY_MS;   // the server ended the stream (it does after an hour, or stopping): follow it again
        await this.sleep(pause);
      } catch {
        if (this.stopped) return;
        this.hooks.onConnection(false);
        await this.sleep(pause);
        pause = Math.min(pause * 2, MAX_RETRY_MS);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => { this.wake = resolve; setTimeout(resolve, ms); });
  }

  private async connectOnce(): Promise<"ended" | "refused"> {
    const controller = new AbortController();
    this.current = controller;
    let silence = setTimeout(() => controller.abort(), SILENCE_MS);
    try {
      const headers: Record<string, string> = { Accept: "text/event-stream" };
      if (this.lastId) headers["Last-Event-ID"] = this.lastId;
      const response = await reach(this.url, { headers, credentials: "same-origin", signal: controller.signal });
      if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        const body = await response.json().catch(() => null);
        this.hooks.onRefused(new ApiError(response.status, body?.detail ?? response.statusText));
        return "refused";
      }
      if (!response.ok || !response.body) throw new ApiError(response.status, response.statusText);
      this.hooks.onConnection(true);
      const parser = new EventParser((event, data, id) => {
        if (id !== null) this.lastId = id;
        if (!this.stopped) this.hooks.onEvent(event, JSON.parse(data));
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.stopped) return "ended";
        clearTimeout(silence);
        silence = setTimeout(() => controller.abort(), SILENCE_MS);
        parser.push(value);
      }
    } finally {
      clearTimeout(silence);
    }
  }
}

/** The text/event-stream format: `field: value` lines, an event per blank line, `:` comments. */
class EventParser {
  private buffer = "";
  private event = "message";
  private data: string[] = [];
  private id: string | null = null;

  constructor(private readonly emit: (event: string, data: string, id: string | null) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    const lines = this.buffer.split("\n");
    this.buffer = lines.pop() ?? "";
    for (const line of lines) this.line(line.replace(/\r$/, ""));
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data.length) this.emit(this.event, this.data.join("\n"), this.id);
      this.event = "message";
      this.data = [];
      this.id = null;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id") this.id = value;
  }
}
