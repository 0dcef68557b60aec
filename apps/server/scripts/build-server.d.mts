import type * as esbuild from 'esbuild';

export declare const SERVER_DIR: string;
export declare const SERVER_BUNDLE: string;
/** Compiles the server into ES modules (start.js and its chunks); returns the package specifiers they import from node_modules. */
export declare function buildServer(build: typeof esbuild, outfile?: string): Promise<string[]>;
