export { hostileNavigationTargets, hostileNavigationSample, hostileTargetArbitrary, type HostileTarget } from './hostile-targets';
export { validData } from './contract-samples';
