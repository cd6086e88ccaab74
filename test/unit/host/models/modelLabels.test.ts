import * as assert from 'assert';
import { windowLabel } from '../../../../src/host/models/modelLabels';

describe('Select Model: the windows beside each model', () => {
	it('shows the window the server runs beside the trained one when they differ', () => {
		assert.strictEqual(
			windowLabel({ id: 'keel-noise', contextWindow: 262_144, runningWindow: 4096 }),
			'4,096 ctx running · 262,144 trained',
		);
	});
	it('one figure when that is all the server says', () => {
		assert.strictEqual(windowLabel({ id: 'm', runningWindow: 8192 }), '8,192 ctx running');
		assert.strictEqual(windowLabel({ id: 'm', contextWindow: 40_960 }), '40,960 ctx trained');
		assert.strictEqual(windowLabel({ id: 'm', contextWindow: 8192, runningWindow: 8192 }), '8,192 ctx running');
		assert.strictEqual(windowLabel({ id: 'm' }), undefined);
	});
});
