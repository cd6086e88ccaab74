/**
 * Shell command lines → every command bash would run, for permission rules.
 *
 * The line is parsed by bash's grammar (bashParser.ts), never split by hand: chains,
 * pipelines, subshells, groups, command and process substitutions (also inside `${…}` and
 * unquoted here-documents), functions and loops all yield their simple commands. Each simple
 * command becomes one or more *forms*: its words after bash's quote removal, joined by one
 * space, the command's path reduced to its name, wrappers looked through (shellWrappers.ts).
 * A rule's `*` is matched against one form at a time, so it never crosses a command boundary.
 *
 * What only bash can resolve (a `$VAR`, a substitution, a glob) makes a form *incomplete*:
 * an allow rule covers it only if the rule ends in `*` after the known part; a deny or ask
 * rule applies whenever it *might* match. A command name that is not known at all might be
 * anything, so any deny rule refuses it.
 */
import { bashParser, type BashNode } from './bashParser';
import { unwrap } from './shellWrappers';
import type { GitCall } from './git/shellGit';
import { wordGlob, wordValue, type Operand, type WordValue } from './shellWords';
import { commandsRunByOptions, linkTargets, writtenByArguments, type RedirectTarget } from './writers/shellWrites';
import { inlineEffects } from './writers/programTexts';
import { directoryOf, walkedFolders } from './shellWalks';
import { hasVariable, isArithmetic, missedSubstitution } from './shellCrossCheck';
import type { CommandForm } from './commandForms';

export type { RedirectTarget } from './writers/shellWrites';
export type { Operand } from './shellWords';

export interface ParsedCommandLine {
	commands: CommandForm[];
	/** Files written by redirections (not /dev/null, not fd duplications) and by the file arguments of tee, cp, mv, rm, sed -i …. */
	writes: RedirectTarget[];
	/** Files read by `<` redirections. */
	reads: RedirectTarget[];
	/** Every argument and assigned value of every command, nested ones included (shellOperands.ts checks them). */
	operands: Operand[];
	/** Folders a command reads every file below (a recursive grep, find -exec…); undefined: names known only at run time (xargs). */
	walks: Array<string | undefined>;
	/** A `cd`/`pushd`/`popd` somewhere: relative redirect targets after it are not where they look. */
	changesDirectory: boolean;
	/** Where each `cd`/`pushd` goes, in order; undefined when only bash knows (`cd`, `cd -`, `popd`, `cd $X`). */
	directories: Array<string | undefined>;
	/** Something we cannot judge statically: never auto-allowed. */
	opaque: string | undefined;
	/** Every git command, for asking git what it will print (gitReads.ts). */
	gits: GitCall[];
	/** The name of every program run, as written (wrappers and what they run); undefined when only bash knows it. */
	programs: Array<string | undefined>;
	/** A GIT_* variable is set for the rest of the line (`export GIT_DIR=…`): which repository git reads is not the command's own. */
	gitEnvironment: boolean;
}

/** Environment variables that change which program runs or what it loads. */
const DANGEROUS_VARIABLE =
	/^(?:PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|BASH_FUNC_\w+|GIT_\w+|NODE_OPTIONS|NODE_PATH|PYTHON\w*|PERL5?\w*|RUBY\w*|npm_config_\w+|HOME|EDITOR|VISUAL|PAGER|LESSOPEN|BROWSER|SHELL|\w*_COMMAND|\w*_PROGRAM)$/i;
/** Variables whose value some program runs as a command line (git, ssh, less, editors). */
const COMMAND_VARIABLE =
	/^(?:\w*_COMMAND|\w*_PROGRAM|(?:GIT_|SUDO_|SSH_)?(?:EDITOR|PAGER|SSH|ASKPASS|EXTERNAL_DIFF|PROXY_COMMAND)|GIT_SEQUENCE_EDITOR|VISUAL|BROWSER|LESSOPEN|LESSCLOSE|MANPAGER|SYSTEMD_PAGER)$/;
const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
const UNKNOWN_COMMAND: CommandForm = { text: '', complete: false, needsAllow: true };

function formOf(words: WordValue[], needsAllow: boolean): CommandForm {
	const parts: string[] = [];
	for (const word of words) {
		parts.push(word.text);
		if (!word.known) {
			return { text: parts.join(' '), complete: false, needsAllow };
		}
	}
	return { text: parts.join(' '), complete: true, needsAllow };
}

class Analysis implements ParsedCommandLine {
	commands: CommandForm[] = [];
	writes: RedirectTarget[] = [];
	reads: RedirectTarget[] = [];
	operands: Operand[] = [];
	walks: Array<string | undefined> = [];
	changesDirectory = false;
	directories: Array<string | undefined> = [];
	opaque: string | undefined;
	gits: GitCall[] = [];
	programs: Array<string | undefined> = [];
	gitEnvironment = false;

	constructor(private readonly _depth: number) {}

	line(source: string): void {
		const parser = bashParser();
		if (!parser) {
			this.commands.push(UNKNOWN_COMMAND);
			this.opaque ??= 'the bash parser is not loaded';
			return;
		}
		if (/[\r\0]/.test(source)) {
			// bash keeps a carriage return inside a word where other tools see a line break.
			this.opaque ??= 'a carriage return or NUL byte';
		}
		const tree = parser.parse(source);
		if (!tree) {
			this.commands.push(UNKNOWN_COMMAND);
			this.opaque ??= 'bash could not parse it';
			return;
		}
		try {
			if (tree.rootNode.hasError) {
				// Whatever bash makes of a line we cannot parse, no rule may allow it.
				this.commands.push(UNKNOWN_COMMAND);
				this.opaque ??= 'it is not valid bash (unbalanced quotes or brackets)';
			}
			this._walk(tree.rootNode);
			if (missedSubstitution(source, tree.rootNode)) {
				this.commands.push(UNKNOWN_COMMAND);
				this.opaque ??= 'a substitution the parser did not read as bash would';
			}
		} finally {
			tree.delete();
		}
	}

	private _walk(node: BashNode): void {
		switch (node.type) {
			case 'word':
				// bash ends an unquoted word at a newline. A word that spans one means the grammar
				// glued two of bash's commands together (seen after a comment line): trust neither.
				if (/(?<!\\)\n/.test(node.text)) {
					this.commands.push(UNKNOWN_COMMAND);
					this.opaque ??= 'the parser and bash may split this line differently';
				}
				break;
			case 'command':
				this._command(node);
				break;
			case 'file_redirect':
				this._redirect(node);
				break;
			case 'variable_assignment':
				if (node.parent?.type !== 'command' && node.parent?.type !== 'declaration_command') {
					this._assignment(node, [node]);
				}
				break;
			case 'declaration_command':
				this._assignment(
					node,
					node.namedChildren.filter((c): c is BashNode => c?.type === 'variable_assignment'),
				);
				break;
			case 'command_substitution':
				// Inside backticks bash unescapes \\, \` and \$ and parses the text again: so do we.
				if (
					node.text.startsWith('`') &&
					node.text.endsWith('`') &&
					node.text.length > 1 &&
					/\\[`$\\]/.test(node.text)
				) {
					const inner = new Analysis(this._depth + 1);
					inner.line(node.text.slice(1, -1).replace(/\\([`$\\])/g, '$1'));
					this._merge(inner);
				}
				break;
			case 'expansion':
				// ${x@P} expands x like a prompt, command substitutions included: an eval of x.
				if (/@P\}$/.test(node.text)) {
					this.opaque ??= `the expansion ${node.text} runs what the variable holds`;
				}
				break;
			case 'arithmetic_expansion':
			case 'c_style_for_statement':
			case 'compound_statement':
			case 'test_command':
				// bash evaluates a variable's value in arithmetic, and "a[$(cmd)]" in it runs cmd.
				if (isArithmetic(node) && hasVariable(node)) {
					this.opaque ??= 'arithmetic on a variable, which bash may evaluate as code';
				}
				break;
		}
		for (const child of node.namedChildren) {
			if (child) this._walk(child);
		}
	}

	/** `GIT_SSH_COMMAND="rm x" git fetch`: the value is a command line too. */
	private _commandValues(assignments: BashNode[]): void {
		for (const assignment of assignments) {
			if (!COMMAND_VARIABLE.test(assignment.childForFieldName('name')?.text ?? '')) continue;
			const valueNode = assignment.childForFieldName('value');
			const value = valueNode ? wordValue(valueNode) : { text: '', known: true };
			this._nested(value.known ? value.text.replace(/^[|!]/, '') : undefined);
		}
	}

	private _nested(line: string | undefined): void {
		if (line === undefined || this._depth >= 8) {
			this.commands.push(UNKNOWN_COMMAND);
			this.opaque ??= 'a command string only known when it runs';
			return;
		}
		if (!line.trim()) return;
		const inner = new Analysis(this._depth + 1);
		inner.line(line);
		this._merge(inner);
	}

	private _merge(inner: Analysis): void {
		this.commands.push(...inner.commands);
		this.writes.push(...inner.writes);
		this.reads.push(...inner.reads);
		this.operands.push(...inner.operands);
		this.walks.push(...inner.walks);
		this.directories.push(...inner.directories);
		this.changesDirectory ||= inner.changesDirectory;
		this.opaque ??= inner.opaque;
		this.gits.push(...inner.gits);
		this.programs.push(...inner.programs);
		this.gitEnvironment ||= inner.gitEnvironment;
	}

	/** An argument or assigned value: what it says, or that only bash knows it. */
	private _operand(node: BashNode, first: boolean): void {
		const value = wordValue(node, first);
		const operand: Operand = { path: value.known ? value.text : undefined, written: node.text };
		if (!value.known) {
			operand.glob = wordGlob(node, first);
		}
		this.operands.push(operand);
	}

	private _assignment(node: BashNode, assignments: BashNode[]): void {
		this._commandValues(assignments);
		this._assignedValues(assignments);
		const names = assignments.map(a => a.childForFieldName('name')?.text ?? '');
		this.gitEnvironment ||= names.some(name => /^GIT_/.test(name));
		if (names.some(name => DANGEROUS_VARIABLE.test(name))) {
			this.commands.push({ text: node.text.replace(/\s+/g, ' '), complete: true, needsAllow: true });
		}
	}

	/** `F=~/.ssh/id_rsa; cat $F`: an assigned value may be the file a later word names. */
	private _assignedValues(assignments: BashNode[]): void {
		for (const assignment of assignments) {
			const value = assignment.childForFieldName('value');
			if (value) this._operand(value, true);
		}
	}

	private _command(node: BashNode): void {
		const assignments: BashNode[] = [];
		const words: WordValue[] = [];
		for (const child of node.namedChildren) {
			if (!child || /redirect$/.test(child.type) || child.type === 'comment') continue;
			if (child.type === 'variable_assignment') {
				assignments.push(child);
			} else if (child.type === 'command_name') {
				const inner = child.namedChildren[0];
				words.push(inner ? wordValue(inner) : { text: '', known: false });
			} else {
				words.push(wordValue(child, false));
				this._operand(child, true);
			}
		}
		this._assignedValues(assignments);
		if (words.length === 0) {
			return;
		}
		if (assignments.some(a => DANGEROUS_VARIABLE.test(a.childForFieldName('name')?.text ?? ''))) {
			// `PATH=… cmd` or `GIT_SSH_COMMAND=… git` is another program: an allow must name the assignment too.
			const plain = formOf(words, true);
			this.commands.push({ ...plain, text: `${assignments.map(a => a.text).join(' ')} ${plain.text}` });
		}
		if (words[0]?.known && words[0].text === 'let') {
			this.opaque ??= 'let evaluates arithmetic, which bash may evaluate as code';
		}
		const unwrapped = unwrap(words);
		this.opaque ??= unwrapped.opaque;
		if (unwrapped.gits) {
			// GIT_DIR=… before the command, or as `env GIT_DIR=… git`: the repository git reads.
			const env = [
				...assignments.map(a => ({
					name: a.childForFieldName('name')?.text ?? '',
					value: a.childForFieldName('value')
						? wordValue(a.childForFieldName('value')!)
						: { text: '', known: true },
				})),
				...words
					.filter(w => w.known && /^GIT_\w+=/.test(w.text))
					.map(w => ({
						name: w.text.slice(0, w.text.indexOf('=')),
						value: { text: w.text.slice(w.text.indexOf('=') + 1), known: true },
					})),
			].filter(e => /^GIT_/.test(e.name));
			for (const args of unwrapped.gits) this.gits.push({ args, env });
		}
		if (unwrapped.argvs.some(({ argv }) => !argv[0]?.known)) {
			this.opaque ??= 'a command name only known when it runs';
		}
		for (const { argv, needsAllow } of unwrapped.argvs) {
			const head = argv[0];
			this.programs.push(head?.known ? head.text : undefined);
			if (needsAllow) {
				this.writes.push(...writtenByArguments(argv));
				this._programEffects(argv);
			}
			this.walks.push(...walkedFolders(argv));
			if (head?.known && head.text.includes('/')) {
				this.commands.push(
					formOf(
						[{ text: head.text.slice(head.text.lastIndexOf('/') + 1), known: true }, ...argv.slice(1)],
						false,
					),
				);
			}
			this.commands.push(formOf(argv, needsAllow));
			if (head?.known && /^(?:cd|pushd|popd)$/.test(head.text.slice(head.text.lastIndexOf('/') + 1))) {
				this.changesDirectory = true;
				this.directories.push(directoryOf(argv));
			}
		}
		this._commandValues(assignments);
		for (const nested of unwrapped.nested) {
			this._nested(nested);
		}
	}

	/**
	 * What a program does beyond its words: files an awk or sed program writes and reads and the
	 * lines it runs, command lines given as option values (`sort --compress-program`), and the
	 * targets of `ln -s`, which are read from the link's folder.
	 */
	private _programEffects(argv: WordValue[]): void {
		const name = argv[0]?.known ? argv[0].text.slice(argv[0].text.lastIndexOf('/') + 1) : '';
		const effects = inlineEffects(name, argv.slice(1));
		if (effects) {
			const files = (paths: string[]): RedirectTarget[] =>
				paths
					.filter(p => p !== '-' && !HARMLESS_DEVICES.has(p))
					.map(path => ({ path, written: `${path} (in the ${name} program)` }));
			this.writes.push(...files(effects.writes));
			this.reads.push(...files(effects.reads));
			for (const file of effects.inPlace ?? [])
				this.writes.push({ path: file.known ? file.text : undefined, written: file.text });
			for (const command of effects.commands) this._nested(command);
			this.opaque ??= effects.opaque;
		}
		for (const command of commandsRunByOptions(argv)) this._nested(command);
		for (const { target, folder } of linkTargets(argv)) {
			const known = target.known && folder !== undefined;
			this.operands.push({ path: known ? target.text : undefined, written: target.text, from: folder });
		}
	}

	private _redirect(node: BashNode): void {
		const operator = node.children.find(c => c && !c.isNamed)?.text ?? '';
		const destination =
			node.childForFieldName('destination') ??
			node.namedChildren.filter(c => c?.type !== 'file_descriptor').at(-1);
		if (!destination) {
			return;
		}
		const value = wordValue(destination);
		if (operator.includes('&') && operator !== '&>' && operator !== '&>>') {
			// `2>&1`, `>&-`, `<&3` duplicate or close descriptors; `>& file` (not a number) writes the file.
			if (operator.startsWith('<') || (value.known && /^\d+-?$|^-$/.test(value.text))) {
				return;
			}
		}
		const target: RedirectTarget = { path: value.known ? value.text : undefined, written: destination.text };
		if (target.path !== undefined && HARMLESS_DEVICES.has(target.path)) {
			return;
		}
		if (operator === '<') {
			this.reads.push(target);
		} else {
			this.writes.push(target);
		}
	}
}

export function splitCommandLine(line: string): ParsedCommandLine {
	const analysis = new Analysis(0);
	analysis.line(line);
	if (analysis.writes.some(w => w.path === undefined)) {
		analysis.opaque ??= 'a redirection target only known when it runs';
	}
	return analysis;
}

export { matchCommandRule } from './commandPattern';
