/** One program's entry in the writers' table (writerTable.ts, writerTableTools.ts): how it reads its options and what it writes. */
import type { OptionGrammar, ParsedArgs } from './getopt';

/**
 * How a written value names files: `file` exactly; `folder` a folder the program fills; `prefix`
 * names it starts (`split`, `csplit`); `zip` the name or the name plus `.zip`; `urlName` the last
 * segment of a URL (`curl -O`, `wget`); `compressed` the name plus the program's suffix.
 */
export type WriteRole = 'file' | 'folder' | 'prefix' | 'zip' | 'urlName' | 'compressed';

export interface WriterEntry {
	grammar: OptionGrammar;
	/** Options (`-o`, `--output`) whose value is written, and how. */
	writes?: Readonly<Record<string, WriteRole>>;
	/** Options whose value is a command the program runs. */
	runs?: readonly string[];
	/** Operands written: every one, or these positions (negative: from the end). */
	operands?: 'all' | readonly number[];
	operandRole?: WriteRole;
	/** `key=value` operands whose value is written (dd's `of=`). */
	keys?: Readonly<Record<string, WriteRole>>;
	/** The entry applies only when this holds (tar's archive is written only when it creates one). */
	when?: (parsed: ParsedArgs) => boolean;
	/** Options after which the written names are only known when it runs (a suffix format, a server's name). */
	unknownWith?: readonly string[];
}
