import fc from 'fast-check';
import { APP_HOME_PATH } from '../app-routes';

/**
 * Navigation targets a hostile link, a tampered storage value or a forged message could carry, for the
 * safe-navigation tests (unit: every one, and thousands generated; chromium: every listed one through each
 * path that navigates). `lands` is where the app must end up: the client list, or the own route asked for.
 */
export interface HostileTarget {
  target: string;
  lands: string;
}

const OTHER_HOSTS = ['evil.example', '127.0.0.2:3000', 'evil.example@127.0.0.1', '[::1]', '0x7f.1'];

/** Ways of writing "go to another origin" (`{h}` stands for the host). */
const ESCAPES = [
  'https://{h}/',
  'http://{h}',
  'HTTPS://{h}/client/manage/list',
  'https:{h}',
  'https:/{h}',
  '//{h}',
  '//{h}/client/manage/list',
  '///{h}',
  '/\\{h}',
  '\\\\{h}',
  '\\/{h}',
  '/\\/{h}',
  '%2F%2F{h}',
  '/%2F%2F{h}',
  '/%2f%2f{h}',
  '/%252F%252F{h}',
  '%252F%252F{h}',
  '/%5C{h}',
  '/%5c{h}',
  '/%255C{h}',
  '/.//{h}',
  '/./\\{h}',
  '/client/manage/list/..//{h}',
  '/\t/{h}',
  '/\n/{h}',
  '/\r/{h}',
  '/\u0000/{h}',
  '/\u000b/{h}',
  '/\u007f/{h}',
  '/\u0085/{h}',
  '\t//{h}',
  ' //{h}',
  '//{h} ',
  '\u3000//{h}',
  '\ufeff//{h}',
  '/\u200b/{h}',
  '/\u202e/{h}',
  '／／{h}',
  '/／{h}',
  '\u2215\u2215{h}',
  '/\u2215{h}',
  '\uff3c\uff3c{h}',
  '/\u2044{h}',
];

const SCRIPT_URLS = [
  'javascript:window.__hostileRan=1',
  'JaVaScRiPt:window.__hostileRan=1',
  ' javascript:window.__hostileRan=1',
  'java\tscript:window.__hostileRan=1',
  'java\nscript:window.__hostileRan=1',
  'javascript&colon;window.__hostileRan=1',
  'javascript%3Awindow.__hostileRan=1',
  '/javascript:window.__hostileRan=1',
  'data:text/html,<script>opener.__hostileRan=1</script>',
  'DATA:text/html;base64,PHNjcmlwdD5vcGVuZXIuX19ob3N0aWxlUmFuPTE8L3NjcmlwdD4=',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'blob:https://evil.example/1',
  'file:///etc/passwd',
  'about:blank',
  'ws://evil.example',
];

/** Not other origins, but not this app's pages either: each lands on the client list. */
const NOT_A_ROUTE = [
  '',
  ' ',
  '/wxEntry',
  '/wxEntry?code=abc&redirectPage=%2Fmot%2Fhome',
  '/WXENTRY',
  '/wxEntry/',
  '/wxentry?redirectPage=//evil.example',
  '/no/such/page',
  '/client/manage/list/extra',
  '/client/manage/list;x=1',
  '/client%2Fmanage%2Flist',
  '/cl%69ent/manage/list',
  '/ｃlient/manage/list',
  '/client/manage/lіst',
  '/api/auth/login/qywx?code=x',
  '/wecom/connect/oauth2/authorize',
  'client/manage/list',
  './client/manage/list',
  '../client/manage/list',
  '?redirectPage=//evil.example',
  '#//evil.example',
  `/client/manage/list?${'a'.repeat(2100)}`,
  '/'.repeat(3000),
  '/mot/home\u0000',
  ' /mot/home',
  '/mot/home ',
  '/mot/home\t',
  '/mot/home\n',
];

/** Own routes, possibly with a query: the route is kept (the page checks the query). */
const OWN_ROUTES: HostileTarget[] = [
  { target: '/mot/home', lands: '/mot/home' },
  { target: '/MOT/HOME/', lands: '/mot/home' },
  { target: '/client/information?customerId=1', lands: '/client/information?customerId=1' },
  { target: '/kyc/index?redirectPage=https://evil.example', lands: '/kyc/index?redirectPage=https://evil.example' },
  { target: '/mot/eventDetail?eventId=1#//evil.example', lands: '/mot/eventDetail?eventId=1' },
];

/** The hand-written list: every escape towards every other host, script URLs, non-routes, and own routes. */
export function hostileNavigationTargets(): HostileTarget[] {
  const escapes = ESCAPES.flatMap((form) => OTHER_HOSTS.map((host) => form.replaceAll('{h}', host)));
  return [
    ...escapes.map((target) => ({ target, lands: APP_HOME_PATH })),
    ...SCRIPT_URLS.map((target) => ({ target, lands: APP_HOME_PATH })),
    ...NOT_A_ROUTE.map((target) => ({ target, lands: APP_HOME_PATH })),
    ...OWN_ROUTES,
  ];
}

/**
 * One target of each kind (an escape, a script URL, a non-route, an own route), for the browser tests, where
 * each target costs a page load or a sign-in: the full list runs against the function itself.
 */
export function hostileNavigationSample(): HostileTarget[] {
  const escapes = ['https://{h}/', '//{h}', '/\\{h}', '\\\\{h}', '/%2F%2F{h}', '/%5C{h}', '/\t/{h}', ' //{h}', '／／{h}'];
  const scripts = [SCRIPT_URLS[1]!, SCRIPT_URLS[3]!, SCRIPT_URLS[8]!];
  const notRoutes = ['/wxEntry?code=abc&redirectPage=%2Fmot%2Fhome', '/no/such/page', '/ｃlient/manage/list', '/mot/home\n'];
  return [
    ...escapes.map((form) => ({ target: form.replaceAll('{h}', OTHER_HOSTS[0]!), lands: APP_HOME_PATH })),
    ...[...scripts, ...notRoutes].map((target) => ({ target, lands: APP_HOME_PATH })),
    OWN_ROUTES[1]!,
    OWN_ROUTES[3]!,
    OWN_ROUTES[4]!,
  ];
}

const pieces = fc.constantFrom(
  '/',
  '//',
  '\\',
  '%2F',
  '%2f',
  '%5C',
  '%25',
  '%',
  '.',
  '..',
  ':',
  '@',
  '?',
  '#',
  '&',
  '=',
  'http',
  'https:',
  'javascript:',
  'data:',
  'evil.example',
  'client',
  'manage',
  'list',
  'mot',
  'home',
  'wxEntry',
  '\t',
  '\n',
  '\u0000',
  ' ',
  '\u3000',
  '\u200b',
  '／',
  '\u2215',
  'ｃ',
  'і',
);

/** Strings built from the pieces targets are attacked with, and arbitrary unicode: the property tests' input. */
export const hostileTargetArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join('')),
  fc.tuple(fc.constantFrom('/', '//', '/\\', ''), fc.string({ unit: 'grapheme', maxLength: 40 })).map(([head, tail]) => head + tail),
  fc.string({ unit: 'binary', maxLength: 60 }),
);
