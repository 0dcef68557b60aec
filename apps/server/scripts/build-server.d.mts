import type * as esbuild from 'esbuild';

export declare const SERVER_DIR: string;
export declare const DIST_DIR: string;
/** Each command's name (`npm run <name>`, `npm start`) and the file it is compiled from. */
export declare const COMMANDS: Readonly<Record<'start' | 'seed' | 'import' | 'mot-sweep', string>>;
/** Compiles the commands into ES modules in `outdir` (each one's file and their chunks); returns esbuild's metafile. */
export declare function buildServer(build: typeof esbuild, outdir?: string): Promise<esbuild.Metafile>;
