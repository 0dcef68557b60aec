import { describe, expect, it } from 'vitest';
import { maskPhone, normalisePhone } from './phone';

describe('phone numbers', () => {
  it('masks the last four digits and keeps the layout', () => {
    expect(maskPhone('+852 9123 4567')).toBe('+852 9123 ****');
    expect(maskPhone('+86 139 1234 5678')).toBe('+86 139 1234 ****');
    expect(maskPhone('+853 66-12')).toBe('+853 **-**');
    expect(maskPhone(null)).toBeNull();
    expect(maskPhone('')).toBeNull();
  });

  it('regroups Hong Kong and mainland numbers and keeps the digits for search', () => {
    expect(normalisePhone('+852-9123-4567')).toEqual({ phone: '+852 9123 4567', digits: '85291234567' });
    expect(normalisePhone('+85291234567')).toEqual({ phone: '+852 9123 4567', digits: '85291234567' });
    expect(normalisePhone('+86 13912345678')).toEqual({ phone: '+86 139 1234 5678', digits: '8613912345678' });
    expect(normalisePhone('+853 6612  3456')).toEqual({ phone: '+853 6612 3456', digits: '85366123456' });
  });
});
