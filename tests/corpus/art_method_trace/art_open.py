#!/usr/bin/env python3
"""art_open.py FILE - an independent walk of a classic ART method trace (text
header, then the SLOW binary section, version 3, dual clock): the
Handler.dispatchMessage calls still open at the end of the records, whether
each is outermost on its thread, and its time to the trace's end (the
header's start time + elapsed-time-usec), to check the expectations by hand."""
import struct,sys
d=open(sys.argv[1],'rb').read()
hdr_end=d.index(b'*end\n')+5
text=d[:hdr_end].decode(errors='replace')
methods={}; threads={}; sec=None; elapsed=None
for line in text.split('\n'):
    if line.startswith('*'): sec=line; continue
    if sec=='*methods' and line.startswith('0x'):
        f=line.split('\t'); methods[int(f[0],16)]=(f[1],f[2])
    if sec=='*threads' and line.strip():
        t,n=line.split('\t',1); threads[int(t)]=n
    if line.startswith('elapsed-time-usec='): elapsed=int(line.split('=')[1])
i=hdr_end; assert d[i:i+4]==b'SLOW'
ver,off=struct.unpack_from('<HH',d,i+4); start=struct.unpack_from('<Q',d,i+8)[0]; rs=struct.unpack_from('<H',d,i+16)[0]
pid_main=[t for t,n in threads.items() if n=='main']
print('version',ver,'recsize',rs,'start',start,'elapsed',elapsed,'main',pid_main, threads.get(25555))
j=i+off; stack={}; last=0
while j+rs<=len(d):
    tid,mv,cpu,wall=struct.unpack_from('<HIII',d,j); j+=rs
    m=mv&~3; act=mv&3; ts=(start+wall)/1000.0; last=max(last,ts)
    st=stack.setdefault(tid,[])
    if act==0: st.append((m,ts))
    else:
        while st:
            mm,t0=st.pop()
            if mm==m: break
for tid,st in stack.items():
    for k,(m,t0) in enumerate(st):
        c,n=methods.get(m,('?','?'))
        if n=='dispatchMessage' and c=='android.os.Handler':
            outer=not any(methods.get(x,('',''))[1]=='dispatchMessage' for x,_ in st[:k])
            print('open dispatchMessage tid',tid,threads.get(tid),'from %.3f'%t0,'outermost',outer,'last record %.3f'%last,'end %.3f'%((start+elapsed)/1000.0), 'dur %.3f'%((start+elapsed)/1000.0-t0))
