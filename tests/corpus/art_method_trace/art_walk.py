#!/usr/bin/env python3
"""art_walk.py FILE - an independent walk of an ART method trace (classic or
streaming): records whose method id no table defines, the calls inside such
a call, and how the records clump (sampling), to check the expectations by hand."""
import struct,sys,collections
d=open(sys.argv[1],'rb').read()
methods={}; threads={}; recs=[]
if d[:4]==b'SLOW':
    ver,off=struct.unpack_from('<HH',d,4); rs=struct.unpack_from('<H',d,16)[0]; i=off; stream=True
else:
    hdr_end=d.index(b'*end\n')+5
    sec=None
    for line in d[:hdr_end].decode(errors='replace').split('\n'):
        if line.startswith('*'):
            sec=line; continue
        # ART writes each id with %#x: "0x..." but a bare "0" for zero
        if sec=='*methods' and '\t' in line:
            f=line.split('\t'); methods[int(f[0],16)]=tuple(f[1:3])
    i=hdr_end; assert d[i:i+4]==b'SLOW'
    ver,off=struct.unpack_from('<HH',d,i+4); rs=struct.unpack_from('<H',d,i+16)[0] if ver>=3 else None
    base=i; i=base+off; stream=False
    print('version',ver,'recsize',rs)
late=0
while i < len(d):
    tid=struct.unpack_from('<H',d,i)[0]
    if stream and tid==0:
        i+=2; code=d[i]; i+=1
        if code==1:
            n=struct.unpack_from('<H',d,i)[0]; i+=2; t=d[i:i+n].decode(); i+=n
            f=t.split('\t'); methods[int(f[0],16)]=(f[1],f[2])
        elif code==2:
            t2,n=struct.unpack_from('<HH',d,i); i+=4; threads[t2]=d[i:i+n].decode(); i+=n
        elif code==3:
            n=struct.unpack_from('<I',d,i)[0]; i+=4; i+=n
        continue
    mv,cpu,wall=struct.unpack_from('<III',d,i+2); i+=rs
    recs.append((tid,mv&~3,mv&3,wall, (mv&~3) in methods))
ids=collections.Counter(m for t,m,a,w,k in recs if m not in methods)
print('records',len(recs),'records with an undefined id',sum(ids.values()),'distinct undefined ids',len(ids))
print('enters undefined',sum(1 for t,m,a,w,k in recs if m not in methods and a==0),'exits undefined',sum(1 for t,m,a,w,k in recs if m not in methods and a!=0))
print('records whose id was not yet defined when met', sum(1 for r in recs if not r[4]))
print(sorted(ids.items())[:10])
# clumping: distinct wall times of records, gaps between successive distinct times (all threads)
ws=sorted(set(w for t,m,a,w,k in recs))
gaps=[b-a for a,b in zip(ws,ws[1:])]
c=collections.Counter(gaps)
print('distinct times',len(ws),'of',len(recs),'records; most common gaps (us):',c.most_common(8))
main=collections.Counter(w for t,m,a,w,k in recs)
print('records per distinct time: max',max(main.values()),'mean %.2f'%(len(recs)/len(ws)))
hdr=d[:4000].decode(errors='replace')
for key in ('sampling','sample','clock='):
    print(key, key in hdr, end='; ')
print()
same=0; last={}
for t,m,a,w,k in recs:
    if t in last and last[t]==w: same+=1
    last[t]=w
print('records at the same time as the previous record of their thread', same, 'of', len(recs), '%.3f'%(same/len(recs)))
import statistics
bythr=collections.defaultdict(list)
for t,m,a,w,k in recs: bythr[t].append(w)
for t,ws in sorted(bythr.items(), key=lambda x:-len(x[1]))[:3]:
    u=sorted(set(ws)); g=[b-a for a,b in zip(u,u[1:])]
    if g: print('thread',t,'records',len(ws),'distinct',len(u),'median gap us',statistics.median(g),'mean gap us %.1f'%statistics.mean(g))
# the undefined id's calls: thread, and the calls entered while it is open (its callees, any depth)
for t,ws in bythr.items():
    pass
for idx,(t,m,a,w,k) in enumerate(recs):
    if m not in methods and a==0:
        depth=0; inside=0; direct=0
        for t2,m2,a2,w2,k2 in recs[idx+1:]:
            if t2!=t: continue
            if a2==0:
                depth+=1; inside+=1
                if depth==1: direct+=1
            else:
                if m2==m and depth==0: break
                depth-=1
        print('undefined id 0x%x entered on thread %d at wall %d: %d calls inside, %d direct'%(m,t,w,inside,direct), 'thread name', threads.get(t))
