import { describe, expect, it } from 'vitest';
import { normalisePhone } from './phone';

describe('phone numbers', () => {
  it('regroups Hong Kong and mainland numbers and keeps the digits for search', () => {
    expect(normalisePhone('+852-9123-4567')).toEqual({ phone: '+852 9123 4567', digits: '85291234567' });
    expect(normalisePhone('+85291234567')).toEqual({ phone: '+852 9123 4567', digits: '85291234567' });
    expect(normalisePhone('+86 13912345678')).toEqual({ phone: '+86 139 1234 5678', digits: '8613912345678' });
    expect(normalisePhone('+853 6612  3456')).toEqual({ phone: '+853 6612 3456', digits: '85366123456' });
  });
});
