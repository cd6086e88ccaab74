import { bool, category, choice, num, setting, str } from '../settingSpec';

// Every sandbox setting is restricted: a workspace that could set them could open the network or lift the limits.
export const SHELL = category('Shell and sandbox', {
	'shell.backend': choice(
		{
			auto: 'The Docker sandbox when an engine answers, otherwise your terminal (the chat says which one ran).',
			docker: 'Always the Docker sandbox; commands fail with a clear message when Docker is not running.',
			terminal:
				'Always the Keel terminal, visible to you, with your own shell and permissions (needs shell integration).',
		},
		'auto',
		'Where `run_command` runs shell commands. The sandbox and its limits are described in docs/sandbox.md in the repository.',
		{ trust: 'restricted' },
	),
	'shell.network': setting(
		str('none'),
		'Docker network of the sandbox. `none` (default) has no network at all; `bridge` (or another Docker network) opts into network access; `host` is refused.',
		{ trust: 'restricted' },
	),
	'shell.timeoutSeconds': setting(
		num(30, 1),
		'Default time limit of one command, in seconds; at the limit the command and every process it started are killed. The model may ask for longer per call (up to 3600 s).',
		{ trust: 'restricted' },
	),
	'shell.memoryMb': setting(
		num(512, 64),
		'Memory limit of the sandbox in MB (no swap beyond it); a command past it is OOM-killed and reported.',
		{ trust: 'restricted' },
	),
	'shell.cpus': setting(num(0.5, 0.1), 'CPUs the sandbox may use (`0.5` = half a core).', { trust: 'restricted' }),
	'shell.gitRepositoryPrograms': setting(
		bool(false),
		"Let git commands that `run_command` runs start the programs the repository's own git configuration names: `core.fsmonitor`, hooks, `diff.external`, textconv and filter drivers, pagers, editors, the repository's aliases, `core.sshCommand`, credential helpers, and files it includes from outside the workspace. Off (default): they are switched off for every command (your own `~/.gitconfig` still applies in the terminal), as they always are for the git Keel runs itself. See docs/permissions.md.",
		{ trust: 'restricted' },
	),
	'shell.image': setting(
		str(''),
		'Docker image for the sandbox. Empty: Keel builds its own from the Dockerfile it ships (`debian:bookworm-slim` and a non-root user), rebuilt when that Dockerfile changes.',
		{ trust: 'restricted' },
	),
});
