const {redactSecrets}=require('./out/src/core/tools/redact.js');
console.log(redactSecrets('marker3 please keep {"auths":{"ghcr.io":{"auth":"+HjhkUnE9YxU8Q2EHt7/abcdABCD1234"}}} safe'));
console.log(redactSecrets('{"auths":{"ghcr.io":{"auth":"+HjhkUnE9YxU8Q2EHt7/abcdABCD1234"}}}'));
