import { z } from 'zod';
import { areaEndpoints } from '../endpoint';
import { ErrorCode, WECOM_FAILURE_CODES } from '../error-codes';
import { epochMsSchema, idSchema, clientNameShape, maskedPhoneSchema, pagedSchema } from '../common';

const kycEndpoint = areaEndpoints({ agent: 'khzl', tag: 'kyc' });

/** A WeCom external contact id (the chat counterpart), as `getCurExternalContact` returns it. */
export const externalUserIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a WeCom external userid (letters, digits, _ or -)');

export const kycCandidateSchema = z.object({
  ...clientNameShape,
  phone: maskedPhoneSchema,
  /** Masked as stored: the first two and last four characters, e.g. `A1**4563` for `A123456(3)`. */
  idDoc: z.string(),
  accountNos: z.array(z.string()),
  status: z.string(),
  /** The WeCom contact this customer is already bound to, if any. */
  boundExternalUserId: z.string().nullable(),
});
export type KycCandidate = z.infer<typeof kycCandidateSchema>;

export const kycSearch = kycEndpoint({
  method: 'POST',
  path: '/api/client/customer/kyc/search',
  request: z.strictObject({
    keyword: z.string().trim().min(1, 'must not be empty').max(50),
    pageNum: z.number().int().min(1).max(1000).default(1),
    pageSize: z.number().int().min(1).max(50).default(20),
  }),
  response: pagedSchema(kycCandidateSchema),
  summary: "Find the signed-in staff member's customers to bind: name, phone, account number or ID tail",
  errors: [ErrorCode.KYC_SEARCH_RATE_LIMITED],
});

/** Why a binding went stale, as WeCom's change_external_contact said; it heals when the two add each other again. */
export const kycStaleReasonSchema = z.enum(['del_follow_user', 'del_external_contact']);
export type KycStaleReason = z.infer<typeof kycStaleReasonSchema>;

export const kycStaleSchema = z.object({ reason: kycStaleReasonSchema, at: epochMsSchema });

export const kycBindingSchema = z.object({
  externalUserId: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  customerNameEn: z.string(),
  customerNo: z.string(),
  phone: maskedPhoneSchema,
  boundAt: epochMsSchema,
  /** Set while WeCom says the contact and the customer's manager are no longer connected. */
  stale: kycStaleSchema.nullable(),
});
export type KycBinding = z.infer<typeof kycBindingSchema>;

export const kycBind = kycEndpoint({
  method: 'POST',
  path: '/api/client/customer/kyc/bind',
  request: z.strictObject({ externalUserId: externalUserIdSchema, customerId: idSchema }),
  response: kycBindingSchema,
  summary: 'Bind a WeCom chat contact to one of your customers (the contact must be yours in WeCom)',
  errors: [
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.KYC_NOT_FOLLOWING,
    ErrorCode.KYC_CONTACT_ALREADY_BOUND,
    ErrorCode.KYC_CUSTOMER_ALREADY_BOUND,
    ...WECOM_FAILURE_CODES,
  ],
});

export const kycUnbind = kycEndpoint({
  method: 'POST',
  path: '/api/client/customer/kyc/unbind',
  request: z.strictObject({ externalUserId: externalUserIdSchema }),
  response: kycBindingSchema,
  summary: 'Remove the binding of a WeCom chat contact (your customer only)',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.KYC_NOT_FOLLOWING, ErrorCode.KYC_NOT_BOUND, ...WECOM_FAILURE_CODES],
});

export const hasKyc = kycEndpoint({
  method: 'GET',
  path: '/api/client/customer/kyc/hasKyc',
  request: z.strictObject({ externalUserId: externalUserIdSchema }),
  response: z.object({
    bound: z.boolean(),
    /** False when the contact is bound to a customer of another staff member (details withheld). */
    ownCustomer: z.boolean(),
    binding: kycBindingSchema.nullable(),
    /** The contact as WeCom knows it; null for your own customer's contact you no longer follow (one never followed: 091003, ADR 0015). */
    contact: z.object({ externalUserId: z.string(), name: z.string(), followedByYou: z.boolean() }).nullable(),
  }),
  summary: 'Is this WeCom contact bound, and to which of your customers',
  errors: [ErrorCode.KYC_NOT_FOLLOWING, ...WECOM_FAILURE_CODES],
});
