#!/usr/bin/env python3
"""art_dispatches.py FILE - an independent walk of a streaming ART method trace
(SLOW header, special records for methods/threads/summary, fixed-size
records): the main thread's outermost Handler.dispatchMessage calls and their
durations, to check the figures in the expectation by hand."""
import struct,sys,collections
d=open(sys.argv[1],'rb').read()
assert d[:4]==b'SLOW'
ver,off=struct.unpack_from('<HH',d,4); start=struct.unpack_from('<Q',d,8)[0]; rs=struct.unpack_from('<H',d,16)[0]
i=off; methods={}; threads={}; recs=[]
while i < len(d):
    tid=struct.unpack_from('<H',d,i)[0]; i+=2
    if tid==0:
        code=d[i]; i+=1
        if code==1:
            n=struct.unpack_from('<H',d,i)[0]; i+=2; t=d[i:i+n].decode(); i+=n
            f=t.split('\t'); methods[int(f[0],16) if f[0].startswith('0x') else int(f[0])]=(f[1],f[2])
        elif code==2:
            t2,n=struct.unpack_from('<HH',d,i); i+=4; threads[t2]=d[i:i+n].decode(); i+=n
        elif code==3:
            n=struct.unpack_from('<I',d,i)[0]; i+=4; summary=d[i:i+n].decode(); i+=n
        else: raise SystemExit('code %d at %d'%(code,i))
    else:
        mv,cpu,wall=struct.unpack_from('<III',d,i); i+=rs-2
        recs.append((tid,mv&~3,mv&3,wall))
main=[t for t,n in threads.items() if n=='main'][0]
stack=[]; out=[]
for tid,m,act,wall in recs:
    if tid!=main: continue
    ts=(start+wall)/1000.0
    if act==0: stack.append((m,ts))
    else:
        if not stack: continue
        k=len(stack)
        while k>0 and stack[k-1][0]!=m: k-=1
        if k==0: continue
        while len(stack)>=k:
            mm,t0=stack.pop()
            if methods.get(mm)==('android.os.Handler','dispatchMessage') and not any(methods.get(x[0])==('android.os.Handler','dispatchMessage') for x in stack):
                out.append(round(ts-t0,3))
print('main',main,'outermost dispatchMessage',len(out),sorted(out,reverse=True),'>=100:',sum(1 for x in out if x>=100))
