import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type Docker from 'dockerode';
import { ExecError, tail } from '../execError';

export const IMAGE_REPOSITORY = 'keel-sandbox';

/** The image to run: the one built from the Dockerfile shipped with Keel, or one the user named. */
export type ImageSource = { kind: 'managed'; dockerfileDir: string } | { kind: 'user'; name: string };

interface ProgressEvent {
	stream?: string;
	status?: string;
	progress?: string;
	error?: string;
	errorDetail?: { message?: string };
}

/** Every file of the build context, sorted, so the hash is stable across machines. */
function contextFiles(dir: string): string[] {
	return fs
		.readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter(file => fs.statSync(path.join(dir, file)).isFile())
		.map(file => file.split(path.sep).join('/'))
		.sort();
}

/** Tag by content: editing the Dockerfile changes the tag, so the next command rebuilds. */
export function managedImageTag(dockerfileDir: string): string {
	const hash = createHash('sha256');
	for (const file of contextFiles(dockerfileDir)) {
		hash.update(file)
			.update('\0')
			.update(fs.readFileSync(path.join(dockerfileDir, file)))
			.update('\0');
	}
	return `${IMAGE_REPOSITORY}:${hash.digest('hex').slice(0, 12)}`;
}

async function imageExists(docker: Docker, name: string): Promise<boolean> {
	try {
		await docker.getImage(name).inspect();
		return true;
	} catch (error) {
		if ((error as { statusCode?: number }).statusCode === 404) {
			return false;
		}
		throw error;
	}
}

/** Runs a build or pull stream to its end; resolves with the log, rejects with the log tail. */
function follow(docker: Docker, stream: NodeJS.ReadableStream, onProgress: (line: string) => void): Promise<string> {
	let log = '';
	let failed = false;
	return new Promise<string>((resolve, reject) => {
		docker.modem.followProgress(
			stream,
			(error: Error | null) => {
				if (error) {
					reject(Object.assign(error, { log }));
				} else {
					resolve(log);
				}
			},
			(event: ProgressEvent) => {
				const line =
					event.stream ??
					(event.status ? `${event.status}${event.progress ? ` ${event.progress}` : ''}\n` : '');
				log += line;
				if (line.trim()) {
					onProgress(line);
				}
				if (event.error || event.errorDetail) {
					failed = true;
					log += `${event.error ?? event.errorDetail?.message}\n`;
				}
			},
		);
	}).then(text => {
		// The engine reports a failed RUN step as an event, not as a stream error.
		if (failed) {
			throw Object.assign(new Error('build failed'), { log: text });
		}
		return text;
	});
}

/** Images of earlier Dockerfile versions; one still used by a container (another window) stays. */
async function pruneOldTags(docker: Docker, keep: string): Promise<void> {
	const images = await docker.listImages({ filters: { reference: [IMAGE_REPOSITORY] } }).catch(() => []);
	for (const tag of images.flatMap(image => image.RepoTags ?? [])) {
		if (tag !== keep && tag.startsWith(`${IMAGE_REPOSITORY}:`)) {
			await docker
				.getImage(tag)
				.remove()
				.catch(() => undefined);
		}
	}
}

/**
 * Makes sure the image exists, building or pulling it with progress. Returns its name.
 * A failure is an ExecError whose message carries the log tail.
 */
export async function ensureImage(
	docker: Docker,
	source: ImageSource,
	onProgress: (line: string) => void,
): Promise<string> {
	if (source.kind === 'user') {
		if (await imageExists(docker, source.name)) {
			return source.name;
		}
		try {
			onProgress(`Pulling ${source.name}…\n`);
			await follow(docker, await docker.pull(source.name), onProgress);
			return source.name;
		} catch (error) {
			const log = (error as { log?: string }).log || (error as Error).message;
			throw new ExecError(
				'imageMissing',
				`The image "${source.name}" (keel.shell.image) is not available and could not be pulled — pull it with \`docker pull ${source.name}\` or clear keel.shell.image.\n${tail(log)}`,
				{ log, cause: error },
			);
		}
	}
	const tag = managedImageTag(source.dockerfileDir);
	if (await imageExists(docker, tag)) {
		return tag;
	}
	onProgress(`Building the sandbox image ${tag} (first use or Dockerfile changed)…\n`);
	try {
		const stream = await docker.buildImage(
			{ context: source.dockerfileDir, src: contextFiles(source.dockerfileDir) },
			{ t: tag, labels: { 'keel.sandbox': 'image' }, rm: true, forcerm: true },
		);
		await follow(docker, stream, onProgress);
	} catch (error) {
		const log = (error as { log?: string }).log || (error as Error).message;
		throw new ExecError(
			'imageBuildFailed',
			`The sandbox image failed to build — fix ${path.join(source.dockerfileDir, 'Dockerfile')} or set keel.shell.image. Build log (end):\n${tail(log)}`,
			{ log, cause: error },
		);
	}
	if (!(await imageExists(docker, tag))) {
		throw new ExecError('imageBuildFailed', `The sandbox image build ended without producing ${tag}.`);
	}
	await pruneOldTags(docker, tag);
	return tag;
}
