const crypto = require('crypto');

function hashPassword(password) {
  return crypto.createHash('md5').update(password).digest('hex'); // want "MD5 protects a secret \(password\)"
}

const apiKeyHash = crypto.createHash('sha1').update(key).digest('hex'); // want "SHA-1 protects a secret \(api key\)"

function encrypt(key, iv, data) {
  const c = crypto.createCipheriv('des-ede3-cbc', key, iv); // want "Broken cipher DES-EDE3-CBC"
  return c.update(data);
}

// Near misses.
function etag(body) {
  return crypto.createHash('md5').update(body).digest('hex');
}
