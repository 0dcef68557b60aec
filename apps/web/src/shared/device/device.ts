/** Phones and tablets (WeCom mobile); WeCom's desktop sidebar is not mobile. */
export const isMobileDevice = (userAgent: string = navigator.userAgent) => /Android|iPhone|iPad|iPod|HarmonyOS|Mobile/i.test(userAgent);
