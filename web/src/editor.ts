// The code editor: CodeMirror 6 with C++ highlighting (CUDA is C++ to a highlighter), compile
// diagnostics as inline lint marks, and a per-problem draft in localStorage.
import { cpp } from "@codemirror/lang-cpp";
import { lintGutter, setDiagnostics, type Diagnostic as CmDiagnostic } from "@codemirror/lint";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { basicSetup } from "codemirror";
import type { Diagnostic } from "./types";

const theme = EditorView.theme({
  "&": { fontSize: "13.5px", height: "100%" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.55" },
  ".cm-gutters": { backgroundColor: "var(--panel)", borderRight: "1px solid var(--line)", color: "var(--muted)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--hover)" },
  ".cm-activeLine": { backgroundColor: "rgba(118, 185, 0, 0.06)" },
});

function extensions(readOnly: boolean): Extension[] {
  return [basicSetup, cpp(), theme, lintGutter(), keymap.of([indentWithTab]), EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly)];
}

export function createEditor(parent: HTMLElement, doc: string, onChange?: (text: string) => void): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [extensions(false), EditorView.updateListener.of((update) => {
        if (update.docChanged) onChange?.(update.state.doc.toString());
      })],
    }),
  });
}

export function createViewer(parent: HTMLElement, doc: string): EditorView {
  return new EditorView({ parent, state: EditorState.create({ doc, extensions: extensions(true) }) });
}

export function setText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** Shows the compiler's diagnostics at their lines (those without a line only in the result panel). */
export function showDiagnostics(view: EditorView, diagnostics: Diagnostic[]): void {
  const doc = view.state.doc;
  const marks: CmDiagnostic[] = [];
  for (const d of diagnostics) {
    if (!d.line || d.line < 1 || d.line > doc.lines) continue;
    const line = doc.line(d.line);
    const from = Math.min(line.from + Math.max(0, (d.column ?? 1) - 1), line.to);
    const to = from < line.to ? line.to : line.from === line.to ? line.to : from;
    const severity = d.severity === "warning" ? "warning" : d.severity === "note" ? "info" : "error";
    marks.push({ from: from === to && line.from < line.to ? line.from : from, to, severity, message: d.message,
                 source: d.stage });
  }
  view.dispatch(setDiagnostics(view.state, marks));
}

const DRAFT_PREFIX = "cudajudge.draft.";

export const drafts = {
  load: (problemId: number): string | null => localStorage.getItem(DRAFT_PREFIX + problemId),
  save: (problemId: number, text: string): void => localStorage.setItem(DRAFT_PREFIX + problemId, text),
  clear: (problemId: number): void => localStorage.removeItem(DRAFT_PREFIX + problemId),
};
