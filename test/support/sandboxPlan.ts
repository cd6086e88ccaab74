// The container spec the sandbox would create for a workspace: the real scan, no engine needed.
import { planSandbox } from '../../src/core/exec/sandbox/sandboxContainer';
import { containerSpec, defaultLimits, type SandboxWorkspace } from '../../src/core/exec/sandbox/sandboxSpec';
import { defaultPathPolicy } from '../../src/core/gate/paths/pathPolicy';

export async function specFor(root: SandboxWorkspace, limits = defaultLimits) {
	return containerSpec((await planSandbox(root, defaultPathPolicy)).plan, 'img', limits);
}
