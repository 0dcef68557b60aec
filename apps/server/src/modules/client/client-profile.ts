import { customerStatusSchema, type CustomerBaseInfo, type CustomerProfile } from '@broker/contract';
import { HKD, maskPhone, money, toCents } from '@broker/domain';
import type { Database } from '../../db/client';
import type { Caller } from '../../http/caller';
import type { CustomerRow } from './client.repository';
import { customerOf } from './client-reads';

export function toBaseInfo(row: CustomerRow): CustomerBaseInfo {
  return {
    customerId: row.id,
    customerNo: row.customerNo,
    nameCn: row.nameCn,
    nameEn: row.nameEn,
    gender: row.gender,
    birthday: row.birthday,
    phoneMasked: maskPhone(row.phone),
    email: row.email,
    idDocType: row.idDocType,
    idDocMasked: row.idDocMasked,
    idDocExpiry: row.idDocExpiry,
    riskLevel: row.riskLevel,
    riskAssessedOn: row.riskAssessedOn,
    status: customerStatusSchema.parse(row.status),
    channel: row.channel,
    openDate: row.openDate,
    closedDate: row.closedDate,
    tags: row.tags,
    remark: row.remark,
    accounts: row.accounts,
    version: row.version,
    updatedAt: Math.round(row.updatedAt),
  };
}

export async function getProfile(db: Database, caller: Caller, customerId: number): Promise<CustomerProfile> {
  const row = await customerOf(db, caller, customerId);
  return {
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
    kycBound: row.kycBound,
    kycStale: row.kycStale,
    openDate: row.openDate,
    lastTradeDate: row.lastTradeDate,
    totalAssetsHkd: toCents(money(row.totalAssetsHkd, HKD)),
    version: row.version,
  };
}

export async function getBaseInfo(db: Database, caller: Caller, customerId: number): Promise<CustomerBaseInfo> {
  return toBaseInfo(await customerOf(db, caller, customerId));
}
