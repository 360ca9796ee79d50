"""count_views.py - independent figures for the dumpsys_activity corpus
expectations, over the raw file (not godeye): per "View Hierarchy:" (up to
the "Looper (" line left of the root) the view lines by regex (Class{hash
FLAGS FLAGS l,t-r,b}, DecorView@, and non-view text at a tree indentation:
views printing their own toString()), the deepest indentation, the screen
(the root box; a flagless DecorView is its children's union) and the
overdraw levels (layers per pixel - 1) by brute force over a grid compressed
to the painted rectangles' edges (visible V with D, clipped to parents,
I/G hides a subtree).  Usage: python3 count_views.py FILE"""
import re,sys,codecs
path=sys.argv[1]
raw=open(path,'rb').read()
txt=raw.decode('utf-16') if raw.startswith(codecs.BOM_UTF16_LE) else raw.decode('utf-8')
lines=txt.replace('\r\n','\n').split('\n')
VIEW=re.compile(r'^( *)([A-Za-z_$][\w$.]*)\{[0-9a-f]+ ([VIG])([A-Za-z.])([A-Za-z.])([A-Za-z.])[A-Za-z.]{4,5} [A-Za-z.]{8} (-?\d+),(-?\d+)-(-?\d+),(-?\d+)')
DECOR=re.compile(r'^( *)DecorView@[0-9a-f]+\[')
PAREN=re.compile(r'\((-?\d+),(-?\d+),(-?\d+),(-?\d+)\)')
def ind(l): return len(l)-len(l.lstrip(' '))
for i,l in enumerate(lines):
    if l.strip()!='View Hierarchy:': continue
    j=i+1
    while not lines[j].strip(): j+=1
    R=ind(lines[j])
    end=j
    while not (lines[end].strip().startswith('Looper (') and ind(lines[end])<R): end+=1
    views=[]   # (depth, kind, rel rect or None, visible, paints)
    custom=noise=0
    for k in range(j,end):
        l=lines[k]; n=ind(l)
        m=VIEW.match(l)
        if m:
            views.append(((n-R)//2, 'v', tuple(int(x) for x in m.group(7,8,9,10)), m.group(3)=='V', m.group(3)=='V' and m.group(6)=='D'))
        elif DECOR.match(l):
            views.append(((n-R)//2, 'decor', None, True, True))
        elif n>R and (n-R)%2==0 and l.strip():
            custom+=1
            p=PAREN.search(l)
            views.append(((n-R)//2, 'custom', tuple(int(x) for x in p.groups()) if p else None, True, False))
        else:
            noise+=1
    # tree by indentation
    stack=[]; absr=[]; par=[]
    for idx,(d,kind,rel,vis,pt) in enumerate(views):
        while stack and views[stack[-1]][0]>=d: stack.pop()
        par.append(stack[-1] if stack else -1)
        stack.append(idx)
    # absolute rects: origin of children = parent's left/top (decor/boxless: parent's origin)
    origin=[None]*len(views); rect=[None]*len(views)
    for idx,(d,kind,rel,vis,pt) in enumerate(views):
        p=par[idx]; ox,oy=origin[p] if p>=0 else (0,0)
        if rel: rect[idx]=(rel[0]+ox,rel[1]+oy,rel[2]+ox,rel[3]+oy); origin[idx]=rect[idx][:2]
        else: rect[idx]=None; origin[idx]=(ox,oy)
    for idx,(d,kind,rel,vis,pt) in enumerate(views):
        if kind=='decor':
            kids=[rect[c] for c in range(len(views)) if par[c]==idx and rect[c] and rect[c][2]>rect[c][0] and rect[c][3]>rect[c][1]]
            rect[idx]=(min(r[0] for r in kids),min(r[1] for r in kids),max(r[2] for r in kids),max(r[3] for r in kids))
    for idx in range(len(views)):
        if rect[idx] is None: rect[idx]=rect[par[idx]]
    W,H=rect[0][2]-rect[0][0],rect[0][3]-rect[0][1]
    # effective rect: clipped by parents and screen; visibility inherited
    eff=[None]*len(views); shown=[None]*len(views)
    def isect(a,b): return (max(a[0],b[0]),max(a[1],b[1]),min(a[2],b[2]),min(a[3],b[3]))
    for idx,(d,kind,rel,vis,pt) in enumerate(views):
        p=par[idx]
        eff[idx]=isect(rect[idx], eff[p] if p>=0 else (0,0,W,H))
        shown[idx]=vis and (shown[p] if p>=0 else True)
    paint=[eff[i] for i,v in enumerate(views) if v[4] and shown[i] and eff[i][2]>eff[i][0] and eff[i][3]>eff[i][1]]
    xs=sorted({0,W}|{r[0] for r in paint}|{r[2] for r in paint}); ys=sorted({0,H}|{r[1] for r in paint}|{r[3] for r in paint})
    xi={x:n for n,x in enumerate(xs)}; yi={y:n for n,y in enumerate(ys)}
    grid=[[0]*(len(xs)-1) for _ in range(len(ys)-1)]
    for r in paint:
        for y in range(yi[r[1]],yi[r[3]]):
            row=grid[y]
            for x in range(xi[r[0]],xi[r[2]]): row[x]+=1
    # overdraw level = layers painted on the pixel - 1 (Android's 1x..4x)
    lv={'1':0,'2':0,'3':0,'4+':0}
    for y in range(len(ys)-1):
        for x in range(len(xs)-1):
            c=grid[y][x]; a=(xs[x+1]-xs[x])*(ys[y+1]-ys[y])
            if c>=2: lv['4+' if c>=5 else str(c-1)]+=a
    page=[l for l in lines[:i] if l.strip().startswith('ACTIVITY ')][-1].split()[1]
    print(page,'lines %d-%d'%(j+1,end),'views',len(views),'custom',custom,'noise',noise,
          'max_depth',max(v[0] for v in views)+1,'screen',(W,H),'painted',len(paint),lv)
