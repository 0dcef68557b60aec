/**
 * Lists and search results never show a full phone number: the last four digits are starred
 * (`+852 9123 4567` → `+852 9123 ****`).
 */
export function maskPhone(phone: string | null): string | null {
  if (!phone) return phone;
  let toHide = 4;
  const chars = phone.split('');
  for (let index = chars.length - 1; index >= 0 && toHide > 0; index -= 1) {
    if (/\d/.test(chars[index]!)) {
      chars[index] = '*';
      toHide -= 1;
    }
  }
  return chars.join('');
}
