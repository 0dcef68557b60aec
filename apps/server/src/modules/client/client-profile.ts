import { customerStatusSchema, type CustomerBaseInfo, type CustomerProfile } from '@broker/contract';
import { HKD, maskPhone, money, toCents } from '@broker/domain';
import type { Database } from '../../db/client';
import type { Caller } from '../../http/caller';
import type { CustomerRow } from './client.repository';
import { customerOf } from './client-reads';

/** What the profile header and the base information both show. */
const shownOf = (row: CustomerRow) => ({
  customerId: row.id,
  customerNo: row.customerNo,
  nameCn: row.nameCn,
  nameEn: row.nameEn,
  gender: row.gender,
  phoneMasked: maskPhone(row.phone),
  status: customerStatusSchema.parse(row.status),
  riskLevel: row.riskLevel,
  channel: row.channel,
  tags: row.tags,
  openDate: row.openDate,
  version: row.version,
});

export function toBaseInfo(row: CustomerRow): CustomerBaseInfo {
  return {
    ...shownOf(row),
    birthday: row.birthday,
    email: row.email,
    idDocType: row.idDocType,
    idDocMasked: row.idDocMasked,
    idDocExpiry: row.idDocExpiry,
    riskAssessedOn: row.riskAssessedOn,
    closedDate: row.closedDate,
    remark: row.remark,
    accounts: row.accounts,
    updatedAt: Math.round(row.updatedAt),
  };
}

export async function getProfile(db: Database, caller: Caller, customerId: number): Promise<CustomerProfile> {
  const row = await customerOf(db, caller, customerId);
  return {
    ...shownOf(row),
    kycBound: row.kycBound,
    kycStale: row.kycStale,
    lastTradeDate: row.lastTradeDate,
    totalAssetsHkd: toCents(money(row.totalAssetsHkd, HKD)),
  };
}

export async function getBaseInfo(db: Database, caller: Caller, customerId: number): Promise<CustomerBaseInfo> {
  return toBaseInfo(await customerOf(db, caller, customerId));
}
