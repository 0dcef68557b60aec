import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, errorEnvelopeSchema, ErrorCode, httpStatusOf, type Endpoint, type ErrorCodeValue } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp } from '../testing';
import { seedEndpointFixture, type EndpointFixture } from '../testing/endpoint-fixture';
import { createTableDigest } from '../testing/table-digest';
import { rawHttp, requestHead } from '../testing/raw-http';
import type { DatabaseHandle } from '../db/client';

const BODY_LIMIT = 16 * 1024;

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

/**
 * Bytes that are not what their headers promise — a form with a broken boundary, JSON that is not
 * UTF-8, a URL that does not decode — through real HTTP: each is a 4xx envelope with its own code
 * and a msg naming the problem, never a 5xx, and nothing is written.
 */
for (const engine of testDatabases()) {
  describe(`malformed input before the handler (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let api: ApiClient;
    let fixture: EndpointFixture;
    let digest: () => Promise<string>;

    beforeAll(async () => {
      database = await engine.create();
      fixture = await seedEndpointFixture(database);
      server = await startTestApp(database, {}, { tuning: { bodyLimitBytes: BODY_LIMIT } });
      api = apiClient(server.baseUrl, await signInAs(server.baseUrl));
      digest = createTableDigest(database);
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const send = (endpoint: Endpoint, body: Buffer | string, contentType: string) => api.raw(endpoint, { body, contentType });

    /** The envelope with `code` at its own status, its msg matching, and the database unchanged. */
    const expectRefused = async (
      answer: Promise<{ status: number; text: string }>,
      code: ErrorCodeValue,
      msg: RegExp,
    ): Promise<{ code: string; msg: string }> => {
      const before = await digest();
      const { status, text } = await answer;
      expect(status, text).toBe(httpStatusOf[code]);
      const envelope = errorEnvelopeSchema.parse(JSON.parse(text));
      expect(envelope.code, text).toBe(code);
      expect(envelope.msg, text).toMatch(msg);
      expect(await digest(), `refused, yet written: ${text}`).toBe(before);
      return envelope;
    };

    describe('multipart on setFold', () => {
      const form = (boundary: string, parts: string) => bytes(parts.replaceAll('{b}', boundary));
      const field = (name: string, value: string) => `--{b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const sendForm = (contentType: string, body: Buffer | string) => send(endpoints.setFold, body, contentType);

      it('a valid form is read (fetch’s FormData, and a quoted boundary with RFC 2046’s odd characters)', async () => {
        const answer = await api.call(endpoints.setFold, { isFold: 'true' });
        expect(answer.body.code, answer.text).toBe(ErrorCode.OK);
        const boundary = "a'()+_,-./:=?b";
        const quoted = await sendForm(
          `multipart/form-data; boundary="${boundary}"`,
          form(boundary, `${field('isFold', 'false')}--{b}--\r\n`),
        );
        expect(JSON.parse(quoted.text), quoted.text).toMatchObject({ code: ErrorCode.OK, data: false });
      });

      it('an over-long boundary is 090606 before busboy sees it (a 500 before: busboy throws past 254)', async () => {
        for (const length of [71, 300, 5000]) {
          const boundary = 'b'.repeat(length);
          await expectRefused(
            sendForm(`multipart/form-data; boundary=${boundary}`, form(boundary, `${field('isFold', 'true')}--{b}--\r\n`)),
            ErrorCode.FORM_MALFORMED,
            new RegExp(`^content-type: the multipart boundary must be 1–70 characters \\(RFC 2046\\), not ${length}$`),
          );
        }
      });

      it('a missing, empty, doubled or ill-formed boundary is 090606', async () => {
        const body = form('x', `${field('isFold', 'true')}--{b}--\r\n`);
        await expectRefused(sendForm('multipart/form-data', body), ErrorCode.FORM_MALFORMED, /needs a boundary parameter/);
        await expectRefused(sendForm('multipart/form-data; boundary=', body), ErrorCode.FORM_MALFORMED, /must be 1–70 characters/);
        await expectRefused(sendForm('multipart/form-data; boundary=x; boundary=y', body), ErrorCode.FORM_MALFORMED, /more than once/);
        await expectRefused(
          sendForm('multipart/form-data; boundary=a{b}', body),
          ErrorCode.FORM_MALFORMED,
          /characters RFC 2046 does not allow/,
        );
      });

      it('a truncated form or a broken JSON field is 090606; parts busboy skips leave an empty form (090400)', async () => {
        const contentType = 'multipart/form-data; boundary=x';
        await expectRefused(
          sendForm(contentType, form('x', `--{b}\r\nContent-Disposition: form-data; name="isFold"\r\n\r\ntr`)),
          ErrorCode.FORM_MALFORMED,
          /^body: is not valid multipart\/form-data \(it ends before its closing boundary\)$/,
        );
        await expectRefused(
          sendForm(contentType, form('x', `--{b}\r\nContent-Disposition: form-data; name="isFold"\r\n`)),
          ErrorCode.FORM_MALFORMED,
          /^body: is not valid multipart\/form-data \(it ends before its closing boundary\)$/,
        );
        // A part without a name is skipped (RFC 7578 requires one): the form is empty, refused for its missing field.
        await expectRefused(
          sendForm(contentType, form('x', `--{b}\r\n${'x'.repeat(100)}\r\n\r\ntrue\r\n--{b}--\r\n`)),
          ErrorCode.VALIDATION,
          /^body\.isFold: is required$/,
        );
        // A body in another boundary: never a closing boundary.
        await expectRefused(
          sendForm(contentType, form('other', `${field('isFold', 'true')}--{b}--\r\n`)),
          ErrorCode.FORM_MALFORMED,
          /\(it ends before its closing boundary\)$/,
        );
        await expectRefused(
          sendForm(
            contentType,
            form(
              'x',
              `--{b}\r\nContent-Disposition: form-data; name="isFold"\r\nContent-Type: application/json\r\n\r\n{tru\r\n--{b}--\r\n`,
            ),
          ),
          ErrorCode.FORM_MALFORMED,
          /declared application\/json is not valid JSON/,
        );
      });

      it('beyond its limits (fields, parts, a file, a long name or value) a form is 090607, never cut short', async () => {
        const contentType = 'multipart/form-data; boundary=x';
        const many = Array.from({ length: 20 }, (_, index) => field(`f${index}`, '1')).join('');
        await expectRefused(sendForm(contentType, form('x', `${many}--{b}--\r\n`)), ErrorCode.FORM_TOO_LARGE, /at most 8 (fields|parts)/);
        await expectRefused(
          sendForm(
            contentType,
            form('x', `--{b}\r\nContent-Disposition: form-data; name="isFold"; filename="a.txt"\r\n\r\ntrue\r\n--{b}--\r\n`),
          ),
          ErrorCode.FORM_TOO_LARGE,
          /carries no files/,
        );
        // Busboy cuts a long value to the limit and says so in a flag the old body reader dropped.
        await expectRefused(
          sendForm(contentType, form('x', `${field('isFold', `true${' '.repeat(2000)}`)}--{b}--\r\n`)),
          ErrorCode.FORM_TOO_LARGE,
          /^body\.isFold: longer than 1024 bytes$/,
        );
        await expectRefused(
          sendForm(contentType, form('x', `${field('n'.repeat(200), 'true')}--{b}--\r\n`)),
          ErrorCode.FORM_TOO_LARGE,
          /^body: a field name is longer than 64 bytes$/,
        );
        await expectRefused(
          sendForm(contentType, form('x', `${field('isFold', 'true')}--{b}--\r\n${' '.repeat(40 * 1024)}`)),
          ErrorCode.FORM_TOO_LARGE,
          /^body: a form here is at most 32 KiB$/,
        );
        expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
      });
    });

    describe('JSON that is not UTF-8', () => {
      const updateProfile = async (body: Buffer, contentType = 'application/json') => send(endpoints.updateProfile, body, contentType);
      const remarkOf = async (customerId: number) => {
        const read = await api.call(endpoints.getBaseInfo, { customerId });
        return (read.body.data as { remark: string | null }).remark;
      };

      it('is refused naming the field, and nothing is stored as U+FFFD', async () => {
        const customerId = fixture.ownCustomerIds[0]!;
        const before = await remarkOf(customerId);
        const version = await fixture.versionOf(customerId);
        const body = bytes(`{"customerId": ${customerId}, "version": ${version}, "remark": "caf`, [0xe9], ` au lait"}`);
        const envelope = await expectRefused(
          updateProfile(body),
          ErrorCode.TEXT_NOT_UTF8,
          /^body\.remark: is not valid UTF-8 \(byte 0xE9 at offset \d+\)/,
        );
        expect(envelope.msg).toContain(`offset ${body.indexOf(0xe9)}`);
        const after = await remarkOf(customerId);
        expect(after).toBe(before);
        expect(after ?? '').not.toContain('\uFFFD');
      });

      it('names the list item, the field name, or the body, for each kind of ill-formed sequence', async () => {
        const customerId = fixture.ownCustomerIds[1]!;
        const version = await fixture.versionOf(customerId);
        const head = `{"customerId": ${customerId}, "version": ${version}, `;
        const cases: [Buffer, RegExp][] = [
          // Overlong "/", a UTF-16 surrogate written as UTF-8, a lone continuation byte, a cut-off sequence.
          [bytes(head, '"tags": ["vip", "a', [0xc0, 0xaf], '"]}'), /^body\.tags\.1: is not valid UTF-8 \(byte 0xC0/],
          [bytes(head, '"remark": "', [0xed, 0xa0, 0x80], '"}'), /^body\.remark: is not valid UTF-8 \(byte 0xED/],
          [bytes(head, '"remark": "\\"quoted\\" ', [0x80], '"}'), /^body\.remark: is not valid UTF-8 \(byte 0x80/],
          [bytes(head, '"remark": "', [0xe4, 0xb8], '"}'), /^body\.remark: is not valid UTF-8 \(byte 0xE4/],
          [bytes(head, '"re', [0xff], 'mark": "x"}'), /^body \(a field name\): is not valid UTF-8 \(byte 0xFF/],
          [bytes(head, '"remark": "x"', [0xfe], '}'), /^body: is not valid UTF-8 \(byte 0xFE/],
        ];
        for (const [body, msg] of cases) await expectRefused(updateProfile(body), ErrorCode.TEXT_NOT_UTF8, msg);
      });

      it('a MOT service note with a bad byte is refused and the event stays unhandled', async () => {
        const eventId = await fixture.freshEvent();
        await expectRefused(
          send(
            endpoints.handleEvent,
            bytes(`{"eventId": ${eventId}, "channel": "phone", "note": "called `, [0xa0], '"}'),
            'application/json',
          ),
          ErrorCode.TEXT_NOT_UTF8,
          /^body\.note: is not valid UTF-8/,
        );
        const detail = await api.call(endpoints.getTodoTaskDetail, { eventId });
        expect((detail.body.data as { event: { serviceRecord: unknown } }).event.serviceRecord).toBeNull();
      });

      it('well-formed UTF-8 of every length (CJK, emoji) is stored and read back exactly', async () => {
        const customerId = fixture.ownCustomerIds[2]!;
        const remark = '陳大文 © 𠮷 😀 é';
        const saved = await updateProfile(
          bytes(JSON.stringify({ customerId, version: await fixture.versionOf(customerId), remark })),
          'application/json; charset=UTF-8',
        );
        expect(JSON.parse(saved.text).code, saved.text).toBe(ErrorCode.OK);
        expect(await remarkOf(customerId)).toBe(remark);
      });

      it('JSON declared in another charset is 090415', async () => {
        await expectRefused(
          updateProfile(bytes('{}'), 'application/json; charset=iso-8859-1'),
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          /must be sent as UTF-8, not "iso-8859-1"/,
        );
      });
    });

    describe('validation messages stay short however broken the input', () => {
      it('200 unknown fields: three are named, the rest counted, the msg at most 300 characters', async () => {
        const customerId = fixture.ownCustomerIds[3]!;
        const unknown = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`field_${index}_${'k'.repeat(45)}`, index]));
        const envelope = await expectRefused(
          send(endpoints.updateProfile, JSON.stringify({ customerId, version: 1, ...unknown }), 'application/json'),
          ErrorCode.VALIDATION,
          /^body: unknown fields "field_0_k+…", "field_1_k+…", "field_2_k+…" and 197 more$/,
        );
        expect(envelope.msg.length).toBeLessThanOrEqual(300);
        const query = new URLSearchParams([
          ['customerId', String(customerId)],
          ...Array.from({ length: 300 }, (_, index): [string, string] => [`q${index}`, '1']),
        ]);
        const answer = await api.raw(endpoints.getProfile, { query: query.toString() });
        const queried = errorEnvelopeSchema.parse(answer.body);
        expect(queried.msg).toBe('query: unknown fields "q0", "q1", "q2" and 297 more');
      });

      it('many broken fields: unknown ones first, three issues spelled out and the rest counted; quoted keys printable', async () => {
        const body = { eventId: 'x', channel: 7, note: 8, outcome: 9, servedAt: 'later', ['\u202e\u0007evil']: 1 };
        const envelope = await expectRefused(
          send(endpoints.handleEvent, JSON.stringify(body), 'application/json'),
          ErrorCode.VALIDATION,
          /^body: unknown field "\?\?evil"; body\.eventId: .+; body\.channel: .+; and 3 more problems$/,
        );
        expect(envelope.msg.length).toBeLessThanOrEqual(300);
        const onlyUnknown = await send(
          endpoints.updateProfile,
          JSON.stringify({ customerId: 1, version: 1, ['\u202e\u0007evil']: 1 }),
          'application/json',
        );
        expect(JSON.parse(onlyUnknown.text).msg).toBe('body: unknown field "??evil"');
      });
    });

    describe('ids are whole numbers written in digits', () => {
      const RULE = /must be a whole number above 0 written in digits, such as 12/;

      it('"1e0", "1.0", " 1", "0x1" and a JSON 1e0 or 1.0 are refused naming the field, never read as another id', async () => {
        const event = await fixture.freshEvent();
        for (const written of [`"${event}e0"`, `"${event}.0"`, `" ${event}"`, `"0x${event.toString(16)}"`, `"+${event}"`]) {
          await expectRefused(
            send(endpoints.markEventsSeen, `{"eventIds": [${written}]}`, 'application/json'),
            ErrorCode.VALIDATION,
            new RegExp(`^body.eventIds.0: ${RULE.source}$`),
          );
        }
        for (const written of [`${event}e0`, `${event}.0`, `${event / 10}e1`]) {
          await expectRefused(
            send(endpoints.markEventsSeen, `{"eventIds": [${written}]}`, 'application/json'),
            ErrorCode.VALIDATION,
            new RegExp(`^body.eventIds.0: a whole number must be written in digits \\(${event}, not ${written.replace('.', '\\.')}\\)$`),
          );
        }
        const customerId = fixture.ownCustomerIds[0]!;
        for (const written of [`${customerId}e0`, `${customerId}.0`, ` ${customerId}`, '']) {
          const answer = await api.raw(endpoints.getProfile, { query: { customerId: written } });
          expect(answer.body, answer.text).toMatchObject({
            code: ErrorCode.VALIDATION,
            msg: expect.stringMatching(written === '' ? /^query.customerId: / : RULE),
          });
        }
        // Written in digits, as text or a number, the id is read as written.
        expect((await api.call(endpoints.markEventsSeen, { eventIds: [String(event)] })).body.code).toBe(ErrorCode.OK);
        expect((await api.raw(endpoints.getProfile, { query: { customerId: String(customerId) } })).body).toMatchObject({
          code: ErrorCode.OK,
        });
      });
    });

    describe('each refusal Fastify makes before a route has its own code', () => {
      it('empty or broken JSON is 090604, a wrong type 090415, too large 090413', async () => {
        await expectRefused(send(endpoints.updateProfile, '', 'application/json'), ErrorCode.JSON_MALFORMED, /^body: must not be empty/);
        await expectRefused(
          send(endpoints.updateProfile, '{"customerId": ', 'application/json'),
          ErrorCode.JSON_MALFORMED,
          /^body: is not valid JSON$/,
        );
        await expectRefused(send(endpoints.updateProfile, 'customerId=1', 'text/plain'), ErrorCode.UNSUPPORTED_MEDIA_TYPE, /^content-type/);
        await expectRefused(
          send(endpoints.updateProfile, JSON.stringify({ remark: 'x'.repeat(BODY_LIMIT) }), 'application/json'),
          ErrorCode.PAYLOAD_TOO_LARGE,
          /larger than the allowed size/,
        );
      });

      it('a prototype key in valid JSON stays a 090400 naming the rule', async () => {
        await expectRefused(
          send(endpoints.updateProfile, '{"__proto__": {"x": 1}}', 'application/json'),
          ErrorCode.VALIDATION,
          /must not be named __proto__/,
        );
      });

      it('a URL that does not decode is 090609, an unknown route 090610', async () => {
        // Byte for byte on a socket: the malformed URL is the point, and no client is trusted to leave it as written.
        for (const path of ['/api/client/%E0%A4%A', '/api/wecom/callback/%zz', `/api/wecom/callback/${'c'.repeat(200)}`]) {
          const bad = await rawHttp(server.baseUrl, [requestHead('GET', path, { connection: 'close' })]);
          expect(bad.status, bad.text).toBe(400);
          expect(errorEnvelopeSchema.parse(bad.body)).toMatchObject({
            code: ErrorCode.URL_MALFORMED,
            msg: expect.stringMatching(/^url: /),
          });
        }
        const unknown = await api.raw('/api/client/nothing', { method: 'POST', agent: 'khzl' });
        expect(unknown.status).toBe(404);
        expect(errorEnvelopeSchema.parse(unknown.body)).toMatchObject({
          code: ErrorCode.NO_SUCH_ENDPOINT,
          msg: 'POST /api/client/nothing: no such endpoint',
        });
      });
    });
  });
}
