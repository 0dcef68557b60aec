import type * as esbuild from 'esbuild';

export declare const SERVER_DIR: string;
export declare const SERVER_BUNDLE: string;
/** A package the bundle imports, and the workspace (e.g. apps/server) whose code imports it. */
export interface ExternalImport {
  workspace: string;
  path: string;
}
/** Compiles the server into one ES module; returns what it imports from node_modules. */
export declare function buildServer(build: typeof esbuild, outfile?: string): Promise<ExternalImport[]>;
