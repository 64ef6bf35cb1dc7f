// The code editor: CodeMirror 6 with C++ highlighting (CUDA is C++ to a highlighter), completion of
// CUDA's names, compile diagnostics as inline lint marks, Run and Submit shortcuts, and a per-problem
// draft in localStorage. Its colours are style.css's variables, so it follows the light or dark theme.
import { completeFromList, type Completion, type CompletionSource } from "@codemirror/autocomplete";
import { cpp, cppLanguage } from "@codemirror/lang-cpp";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic as CmDiagnostic } from "@codemirror/lint";
import { Compartment, EditorState, Prec, type Extension } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { tags } from "@lezer/highlight";
import { basicSetup } from "codemirror";
import cudaNames from "./cuda-completions.json";
import { t, type Key } from "./i18n";
import { onThemeChange, theme as pageTheme } from "./theme";
import type { Diagnostic } from "./types";

const theme = EditorView.theme({
  "&": { fontSize: "13.5px", height: "100%", color: "var(--ink)", backgroundColor: "var(--panel)" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.55" },
  ".cm-content": { caretColor: "var(--ink)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--ink)" },
  ".cm-gutters": { backgroundColor: "var(--panel)", borderRight: "1px solid var(--line)", color: "var(--muted)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--hover)" },
  ".cm-activeLine": { backgroundColor: "var(--code-active-line)" },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--ink)", border: "1px solid var(--line)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--accent-soft)", color: "var(--ink)" },
  ".cm-completionDetail": { color: "var(--muted)", fontStyle: "normal", marginLeft: "1em" },
  ".cm-panels": { backgroundColor: "var(--panel-alt)", color: "var(--ink)" },
});

// Colours are variables too: style.css gives each a light and a dark value.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.modifier, tags.operatorKeyword], color: "var(--code-keyword)" },
  { tag: [tags.typeName, tags.className, tags.namespace], color: "var(--code-type)" },
  { tag: [tags.string, tags.character], color: "var(--code-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--code-number)" },
  { tag: tags.comment, color: "var(--code-comment)", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.definition(tags.variableName)], color: "var(--code-function)" },
  { tag: [tags.processingInstruction, tags.macroName, tags.meta], color: "var(--code-macro)" },
  { tag: tags.invalid, color: "var(--red)" },
]);

// CodeMirror's own defaults (selection, search matches, brackets) come in a light and a dark variant.
const darkMode = new Compartment();
const darkness = (): Extension => EditorView.darkTheme.of(pageTheme() === "dark");

/** The editor's look in the page's theme; every editor showing it switches with the theme. */
export const codeStyle = (): Extension => [theme, syntaxHighlighting(highlight), darkMode.of(darkness())];

onThemeChange(() => {
  for (const element of document.querySelectorAll<HTMLElement>(".cm-editor")) {
    const view = EditorView.findFromDOM(element);
    if (view && darkMode.get(view.state) !== undefined) view.dispatch({ effects: darkMode.reconfigure(darkness()) });
  }
});

// The list is generated from the judge's runtime headers and its runtime allow-list by
// web/scripts/cuda_completions.py; each group names what the entry is.
const GROUPS: Record<string, Key> = { builtin: "cudaBuiltin", qualifier: "cudaQualifier", sync: "cudaSync",
                                      atomic: "cudaAtomic", intrinsic: "cudaIntrinsic", runtime: "cudaRuntime" };

const cudaCompletions: CompletionSource = (context) => completeFromList(
  cudaNames.map((n): Completion => ({ label: n.label, type: n.type, detail: t(GROUPS[n.group]) })))(context);

export interface EditorActions {
  run: () => void;
  submit: () => void;
}

const SHORTCUTS: Record<keyof EditorActions, string> = { run: "Mod-Enter", submit: "Mod-Shift-Enter" };
const MAC = /Mac|iPhone|iPad/.test(navigator.userAgent);

/** How an action's shortcut reads on this platform: "Ctrl+Enter", or "⌘+Enter" on a Mac. */
export function shortcutLabel(action: keyof EditorActions): string {
  return SHORTCUTS[action].replace("Mod", MAC ? "⌘" : "Ctrl").replaceAll("-", "+");
}

function actionKeys(actions: EditorActions): Extension {
  // Above the default keymap, which binds Mod-Enter to inserting a blank line.
  return Prec.highest(keymap.of((Object.keys(SHORTCUTS) as (keyof EditorActions)[]).map((action) => ({
    key: SHORTCUTS[action], run: () => { actions[action](); return true; } }))));
}

function extensions(readOnly: boolean): Extension[] {
  return [basicSetup, cpp(), cppLanguage.data.of({ autocomplete: cudaCompletions }), codeStyle(), lintGutter(),
          keymap.of([indentWithTab]), EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];
}

export function createEditor(parent: HTMLElement, doc: string, onChange?: (text: string) => void,
                             actions?: EditorActions): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [extensions(false), actions ? actionKeys(actions) : [], EditorView.updateListener.of((update) => {
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
