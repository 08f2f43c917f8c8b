const config = {
  apiKey: 'f3Jk9QzL2mXw8RtV5nBc7HyD4pGs', // want "Possible hardcoded secret in apiKey"
  token: process.env.API_TOKEN,
  secret: import.meta.env.VITE_SECRET,
};

export const authHeader = { Authorization: `Bearer ${token}` };
export const SESSION_COOKIE_NAME = 'sid';
if (password === 'Vq7#pL2m!xR9') { // want "looks like a real password"
  grant();
}
export const BeeTokenAddress = '0x36435796ca9be2bf150ce0dece1b6fd4e5a1be8d';
const strings = { "Change Bender's password into slurmCl4ssic without using Forgot Password.": "チャレンジ：パスワードを変更" };
const unsigned = { authorization: 'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJkYXRhIjp7ImVtYWlsIjoiand0bjNkQGp1aWNlLXNoLm9wIn0.' };
