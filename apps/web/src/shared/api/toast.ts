/** docs/spec.md §9: failure toasts stay 2000 ms. */
export const TOAST_DURATION_MS = 2000;

/** Toast (and the animation library under it) loads on the first toast, not with the first screen. */
export function showToast(message: string) {
  void import('../ui/antd-toast').then(({ default: Toast }) => Toast.show({ content: message, duration: TOAST_DURATION_MS }));
}
