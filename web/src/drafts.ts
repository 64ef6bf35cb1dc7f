// Drafts: the editor's text per problem, kept in this browser's storage at once and, when signed in, on
// the server a moment after typing stops, so that it follows the learner to another browser. Each save
// names the server revision it was edited from; a save made on an older one (another tab or browser saved
// since) is refused with the newer draft, and the learner chooses which to keep.
import { api, ApiError } from "./api";
import type { DraftOut } from "./types";

const TEXT_PREFIX = "cudajudge.draft.";
const REVISION_PREFIX = "cudajudge.draft-revision.";
const SAVE_AFTER_MS = 800;

export type DraftState = "local" | "saving" | "saved" | "offline";

function local(problemId: number): { text: string | null; revision: number } {
  return { text: localStorage.getItem(TEXT_PREFIX + problemId),
           revision: Number(localStorage.getItem(REVISION_PREFIX + problemId) ?? 0) };
}

function keepLocally(problemId: number, text: string, revision: number): void {
  localStorage.setItem(TEXT_PREFIX + problemId, text);
  localStorage.setItem(REVISION_PREFIX + problemId, String(revision));
}

/** The server's draft, or null when there is none (or the server cannot be asked). */
export async function serverDraft(problemId: number): Promise<DraftOut | null> {
  try {
    return await api.draft(problemId);
  } catch {
    return null;   // none yet (404), or the server cannot be asked: this browser's copy serves
  }
}

export class DraftSync {
  private revision = 0;
  private timer: number | undefined;

  /** `onState` hears where the text is kept; `onNewer` gets the newer draft a refused save found. */
  constructor(private readonly problemId: number, private readonly signedIn: boolean,
              private readonly onState: (state: DraftState) => void,
              private readonly onNewer: (newer: DraftOut) => void) {}

  /** The text to open with: the server's draft when it is newer than this browser's, else this browser's
   * (which may hold edits not yet saved there), else `starter`. */
  async initial(starter: string): Promise<string> {
    const mine = local(this.problemId);
    const stored = this.signedIn ? await serverDraft(this.problemId) : null;
    if (stored && (mine.text === null || stored.revision !== mine.revision)) {
      this.revision = stored.revision;
      keepLocally(this.problemId, stored.source, stored.revision);
      return stored.source;
    }
    this.revision = stored?.revision ?? 0;
    if (mine.text !== null && mine.text !== stored?.source) this.edited(mine.text);   // not yet on the server
    return mine.text ?? starter;
  }

  /** The editor's text changed: kept here now, on the server shortly. */
  edited(text: string): void {
    keepLocally(this.problemId, text, this.revision);
    this.onState("local");
    if (!this.signedIn) return;
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.save(text), SAVE_AFTER_MS);
  }

  /** Take the newer draft a refused save found (the caller puts its text in the editor). */
  adopt(newer: DraftOut): void {
    this.revision = newer.revision;
    keepLocally(this.problemId, newer.source, newer.revision);
  }

  /** Keep this editor's text over the newer draft. */
  overwrite(newer: DraftOut, text: string): void {
    this.revision = newer.revision;
    void this.save(text);
  }

  /** Back to the starter: the draft is dropped here and on the server. */
  async clear(): Promise<void> {
    window.clearTimeout(this.timer);
    localStorage.removeItem(TEXT_PREFIX + this.problemId);
    localStorage.removeItem(REVISION_PREFIX + this.problemId);
    this.revision = 0;
    if (this.signedIn) await api.deleteDraft(this.problemId).catch(() => undefined);
  }

  stop(): void {
    window.clearTimeout(this.timer);
  }

  private async save(text: string): Promise<void> {
    this.onState("saving");
    try {
      const stored = await api.saveDraft(this.problemId, text, this.revision);
      this.revision = stored.revision;
      keepLocally(this.problemId, text, stored.revision);
      this.onState("saved");
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) this.onNewer((error.detail as { draft: DraftOut }).draft);
      else this.onState("offline");
    }
  }
}

/** Make `source` the problem's draft (after "Open in editor"), on the server too when signed in. */
export async function replaceDraft(problemId: number, source: string, signedIn: boolean): Promise<void> {
  const stored = signedIn ? await serverDraft(problemId) : null;
  let revision = stored?.revision ?? 0;
  if (signedIn) {
    try {
      revision = (await api.saveDraft(problemId, source, revision)).revision;
    } catch {
      // kept in this browser; the editor saves it on the server once it can
    }
  }
  keepLocally(problemId, source, revision);
}

/** The draft "Open in editor" would replace, when there is one that differs from `source`. */
export async function draftReplacedBy(problemId: number, source: string, signedIn: boolean): Promise<string | null> {
  const stored = signedIn ? await serverDraft(problemId) : null;
  const text = stored?.source ?? local(problemId).text;
  return text !== null && text !== source ? text : null;
}
