const express = require('express');

const app = express();
// app.get('/commented', handler)
const note = "process.env.IN_A_STRING";
process.env.WRITTEN = '1';
app.post('/api/items', (req, res) => res.status(201).json(req.body)); // want "route POST /api/items"
module.exports = { app, note, port: process.env.PORT };
