const cp = require('child_process');
const { execSync, exec: run, execFile } = require('node:child_process');

function deploy(branch, dir) {
  cp.exec(`git checkout ${branch}`, done); // want "Shell command built from variable input"
  execSync('rm -rf ' + dir); // want "child_process.execSync"
  run(`ls ${dir}`); // want "child_process.exec runs"
  require('child_process').execSync("tar xf " + dir); // want "execSync"
}

// Near misses: none of these is reported.
function fine(branch, dir, cmd) {
  cp.exec('git status', done);
  execSync(`make build`);
  execSync('echo ' + 'done');
  execFile('git', ['checkout', branch]);
  execSync(cmd);
  db.exec(`SELECT ${dir}`);
  const s = "cp.exec(`x ${y}`)";
  return s;
}

function done() {}

module.exports = { deploy, fine };
