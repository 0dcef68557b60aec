import type * as esbuild from 'esbuild';

export declare const SERVER_DIR: string;
export declare const SERVER_BUNDLE: string;
/** Compiles the server into one ES module; returns the package specifiers it imports from node_modules. */
export declare function buildServer(build: typeof esbuild, outfile?: string): Promise<string[]>;
