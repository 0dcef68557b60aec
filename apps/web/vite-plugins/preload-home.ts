import { resolve } from 'node:path';
import type { HtmlTagDescriptor, Plugin } from 'vite';

/** What rolldown-vite hands transformIndexHtml for a chunk (the fields used here). */
interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  isEntry: boolean;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/**
 * Adds to index.html a `<link rel="modulepreload">` for each chunk of `modules` (source paths relative to the
 * web app's root: the home page's route chunk and what it awaits) and its static imports, and a
 * `<link rel="stylesheet">` for their CSS, leaving out what the entry already loads (ADR 0037).
 *
 * Without it a cold visit fetched them in a chain: the HTML, then the start-up scripts, which ran, rendered
 * the shell and only then asked for the page's chunk (and its CSS, and the response checker with the first
 * call). With it the browser fetches them beside the start-up scripts, and Vite's loader finds them in the
 * document when the page is imported (it skips a stylesheet or script already linked). Every first visit's
 * first page is the home or leads to it (the sign-in returns there), so no visit fetches them for nothing.
 * The scripts ask for low priority: the start-up scripts, whose evaluation is the longest step, get a slow link
 * first. The stylesheets do not: one in the head holds back the entry's execution until it is in.
 */
export function preloadHome(modules: readonly string[]): Plugin {
  let root = '';
  return {
    name: 'broker-preload-home',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((output): output is typeof output & BuiltChunk => output.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const closure = (start: BuiltChunk, into: Set<BuiltChunk>) => {
          if (into.has(start)) return into;
          into.add(start);
          for (const file of start.imports) {
            const imported = byFile.get(file);
            if (imported) closure(imported, into);
          }
          return into;
        };
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) throw new Error('preload-home: no entry chunk');
        const loaded = closure(entry, new Set());
        const roots = modules.map((module) => {
          const id = resolve(root, module);
          const chunk = chunks.find((candidate) => candidate.facadeModuleId === id);
          if (!chunk) throw new Error(`preload-home: no chunk for ${module}`);
          return chunk;
        });
        const wanted = new Set<BuiltChunk>();
        for (const chunk of roots) closure(chunk, wanted);
        const scripts = [...wanted].filter((chunk) => !loaded.has(chunk));
        const loadedCss = new Set([...loaded].flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]));
        // In the order Vite's loader links them: a chunk's imports' CSS (depth first) before its own.
        const css: string[] = [];
        const visited = new Set<BuiltChunk>();
        const collectCss = (chunk: BuiltChunk) => {
          if (visited.has(chunk)) return;
          visited.add(chunk);
          for (const file of chunk.imports) {
            const imported = byFile.get(file);
            if (imported) collectCss(imported);
          }
          for (const file of chunk.viteMetadata?.importedCss ?? []) if (!loadedCss.has(file) && !css.includes(file)) css.push(file);
        };
        for (const chunk of roots) collectCss(chunk);
        const base = '/';
        return [
          ...scripts.map((chunk): HtmlTagDescriptor => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, fetchpriority: 'low', href: `${base}${chunk.fileName}` },
            injectTo: 'head',
          })),
          ...css.map((file): HtmlTagDescriptor => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', crossorigin: true, href: `${base}${file}` },
            injectTo: 'head',
          })),
        ];
      },
    },
  };
}
