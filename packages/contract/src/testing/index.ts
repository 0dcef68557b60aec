export { hostileNavigationTargets, hostileNavigationSample, hostileTargetArbitrary, type HostileTarget } from './hostile-targets';
