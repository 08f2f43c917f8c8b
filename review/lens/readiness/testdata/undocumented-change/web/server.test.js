// Near miss: tests are not public surface.
const app = require('./server');
app.get('/extra', () => {});
