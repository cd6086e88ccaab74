import { useLayoutEffect, useState } from 'preact/hooks';
import { everydayState } from './everydayState';

/**
 * Re-renders the calling component when the everyday state changes. Subscribes in the commit
 * (a layout effect, not one deferred to the next frame) and re-checks the serial seen while
 * rendering, so a change that lands between render and subscription is not missed: a row
 * mounted just before its turn's controls arrived would otherwise never show them.
 */
export function useEverydayState(): typeof everydayState {
	const [, setTick] = useState(0);
	const seen = everydayState.serial;
	useLayoutEffect(() => {
		const unsubscribe = everydayState.subscribe(() => setTick(tick => tick + 1));
		if (everydayState.serial !== seen) {
			setTick(tick => tick + 1);
		}
		return unsubscribe;
	}, []);
	return everydayState;
}
