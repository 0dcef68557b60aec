import { decrypt, getSignature } from '@wecom/crypto';
import { XMLParser } from 'fast-xml-parser';
import type { z } from 'zod';
import { callbackTimeProblem, ErrorCode, type wecomCallbackQuerySchema } from '@broker/contract';
import { ApiError } from '../../http/api-error';
import type { CallbackConfig } from '../../corps';
import { sameSecret } from '../auth';

const sameHex = (a: string, b: string) => sameSecret(a.toLowerCase(), b.toLowerCase());

/**
 * The one gate of every callback (ADR 0019): fresh timestamp, msg_signature with the corp's Token, AES
 * decryption by WeCom's own library, and the receiveid equal to the corp's CorpID (another corp's is refused).
 */
export function openCallback(
  settings: CallbackConfig,
  corpId: string,
  query: z.output<typeof wecomCallbackQuerySchema>,
  ciphertext: string,
  nowMs = Date.now(),
): string {
  requireNow('timestamp', Number(query.timestamp), nowMs);
  const expected = getSignature(settings.token, query.timestamp, query.nonce, ciphertext);
  if (!sameHex(expected, query.msg_signature)) {
    throw new ApiError(
      ErrorCode.WECOM_CALLBACK_SIGNATURE_INVALID,
      "msg_signature: does not match this corp's callback Token (not from WeCom, or the Token differs from the admin console's)",
    );
  }
  let opened: { message: string; id: string };
  try {
    opened = decrypt(settings.encodingAesKey, ciphertext);
  } catch {
    opened = { message: '', id: '' };
  }
  if (opened.id !== corpId) {
    throw new ApiError(
      ErrorCode.WECOM_CALLBACK_UNDECRYPTABLE,
      'Encrypt: does not decrypt to a message for this corp with its EncodingAESKey (check the key in the admin console)',
    );
  }
  return opened.message;
}

export function requireNow(field: string, seconds: number, nowMs = Date.now()) {
  const problem = callbackTimeProblem(seconds, nowMs);
  if (problem) throw new ApiError(ErrorCode.WECOM_CALLBACK_EXPIRED, `${field}: ${problem}`);
}

// No entities, no attributes: the XML WeCom sends is flat CDATA text.
const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, processEntities: false, ignoreDeclaration: true });

/** A DOCTYPE or no `<xml>` root is refused. */
export function parseCallbackXml(text: string, field: string): Record<string, unknown> {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw ApiError.validation(field, 'must not declare a DOCTYPE or entities');
  let parsed: unknown;
  try {
    parsed = parser.parse(text, true);
  } catch {
    throw ApiError.validation(field, 'is not well-formed XML');
  }
  const root = (parsed as { xml?: unknown } | null)?.xml;
  if (!root || typeof root !== 'object' || Array.isArray(root)) throw ApiError.validation(field, 'must be an <xml> element of fields');
  return root as Record<string, unknown>;
}
