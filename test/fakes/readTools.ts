import { createReadTools } from '../../src/core/tools/files/fileTools';
import { defaultToolDeps } from '../../src/core/tools/toolDeps';
import type { ToolDefinition } from '../../src/core/tools/defineTool';

/** The read-only file tools with default dependencies (bundled rg, default deny list), for tests and benches. */
export const fileTools: ToolDefinition<any>[] = createReadTools(defaultToolDeps());
export const [readFileTool, listDirectoryTool, findPathTool] = fileTools;
