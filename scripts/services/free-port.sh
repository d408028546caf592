#!/usr/bin/env bash
# Prints a TCP port on 127.0.0.1 that nothing listens on.
exec node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
