import type { CheckModelToHost } from '../../shared/checkModelProtocol';
import { postToHost } from '../state/hostHandle';

/** The report view's commands to the host. */
export const post: (message: CheckModelToHost) => void = postToHost;
