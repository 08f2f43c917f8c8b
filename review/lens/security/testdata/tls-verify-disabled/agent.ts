import https from 'https';

export const agent = new https.Agent({ rejectUnauthorized: false }); // want "Certificate verification is disabled"

process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'; // want "every TLS connection of the process"

// Near misses.
// rejectUnauthorized: false is what we used to do.
export const strict = new https.Agent({ rejectUnauthorized: true });
