/** The type of usage-text.mjs (plain JavaScript, so that bin/pagegrade.js reads it without a loader). */
export declare const usage: string;
export declare const helpArguments: ReadonlyArray<string | undefined>;
