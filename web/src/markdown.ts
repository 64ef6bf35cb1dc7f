// Problem statements: Markdown with $inline$ and $$display$$ math (KaTeX), sanitized before display
// (uploaded statements are an instructor's text, shown to everyone).
import DOMPurify from "dompurify";
import katex from "katex";
import "katex/dist/katex.min.css";
import { Marked, type TokenizerAndRendererExtension } from "marked";

function math(text: string, displayMode: boolean): string {
  return katex.renderToString(text, { displayMode, throwOnError: false, output: "htmlAndMathml" });
}

const blockMath: TokenizerAndRendererExtension = {
  name: "blockMath",
  level: "block",
  start: (src) => src.match(/^\$\$/m)?.index,
  tokenizer(src) {
    const m = /^\$\$([\s\S]+?)\$\$[^\S\n]*(?:\n|$)/.exec(src);
    return m ? { type: "blockMath", raw: m[0], text: m[1].trim() } : undefined;
  },
  renderer: (token) => `<div class="math-display">${math(token.text, true)}</div>\n`,
};

const inlineMath: TokenizerAndRendererExtension = {
  name: "inlineMath",
  level: "inline",
  start: (src) => { const i = src.indexOf("$"); return i < 0 ? undefined : i; },
  tokenizer(src) {
    const display = /^\$\$([^$]+?)\$\$/.exec(src);
    if (display) return { type: "inlineMath", raw: display[0], text: display[1].trim(), display: true };
    const inline = /^\$([^$\n]+?)\$/.exec(src);
    return inline ? { type: "inlineMath", raw: inline[0], text: inline[1], display: false } : undefined;
  },
  renderer: (token) => math(token.text, Boolean(token.display)),
};

const marked = new Marked({ gfm: true, extensions: [blockMath, inlineMath] });

export function renderMarkdown(source: string): string {
  return DOMPurify.sanitize(marked.parse(source, { async: false }) as string);
}
