#!/usr/bin/env python3
"""The rows of decision 0061's table: one bundle's first run's timeline re-encoded several ways,
each a gzip -9 of the whole bundle's compact JSON, against the bundle before timelines.

    python3 scripts/timeline-encodings.py MAIN.json THIS.json [BEFORE_BYTES]

MAIN.json: the run as main wrote it (plain cells), THIS.json: as this branch writes it; both from
`runlens import` of `gen_jtl.py 72000 ... --seed 1`. BEFORE_BYTES defaults to 20,009. A rough
measuring script (the 60 s rows add the sums of bucket pairs, which is not bit-exact), not a tool.
"""
import base64
import copy
import gzip
import json
import math
import sys
from math import lgamma, log

def gz(v): return len(gzip.compress(json.dumps(v,separators=(',',':')).encode(),9))
BEFORE=int(sys.argv[3]) if len(sys.argv) > 3 else 20009
old=json.load(open(sys.argv[1])); new=json.load(open(sys.argv[2]))
def row(name,b):
    n=b if isinstance(b,int) else gz(b); print(f'| {name} | {n:,} | {n/BEFORE:.2f} |')
bare=copy.deepcopy(old); bare['runs'][0].pop('timeline'); row('bundle without timeline', bare)
row('timeline as on main (plain cells, values, samples, sums)', old)
def steps(c):
    p=0; r=[]
    for i in range(0,len(c),2):
        r.append(c[i]-p); p=c[i]
        if c[i+1]>1: r.append(-(c[i+1]-1))
    return r
def variant(cells=False, values=False, derive=False, b64=False, merge=1, nocells=False):
    b=copy.deepcopy(old); tl=b['runs'][0]['timeline']
    if merge>1:
        tl['buckets']=(tl['buckets']+merge-1)//merge; tl['interval_s']*=merge
        tl['users']=[max(tl['users'][j:j+merge]) for j in range(0,len(tl['users']),merge)]
        for c in tl['causes']:
            m={}
            for i in range(0,len(c['counts']),2): m[c['counts'][i]//merge]=m.get(c['counts'][i]//merge,0)+c['counts'][i+1]
            c['counts']=[q for k in sorted(m) for q in (k,m[k])]
    out=[]
    for x in tl['transactions']:
        x=dict(x)
        if merge>1:
            nc=[]
            for j in range(0,len(x['cells']),merge):
                m={}
                for c in x['cells'][j:j+merge]:
                    for i in range(0,len(c),2): m[c[i]]=m.get(c[i],0)+c[i+1]
                nc.append([q for k in sorted(m) for q in (k,m[k])])
            x['cells']=nc
            for k in ('samples','errors'): x[k]=[sum(x[k][j:j+merge]) for j in range(0,len(x[k]),merge)]
            # sums recomputed per sample order unknown: derive from cells for exact, add for others
            x['sum_ms']=[sum(x['sum_ms'][j:j+merge]) for j in range(0,len(x['sum_ms']),merge)]
        if nocells:
            x.pop('cells',None)
        cells=x.get('cells')
        vals=x.get('values_ms',[])
        der_s = cells is not None and [sum(c[1::2]) for c in cells]==x['samples']
        der_sum = cells is not None and x.get('exact') and all(v==int(v) for v in vals)
        if cells is not None and cells and (cells is not None):
            if b64:
                o=bytearray()
                def vi(n):
                    while True:
                        q=n&0x7f; n>>=7
                        if n: o.append(q|0x80)
                        else: o.append(q); return
                for c in cells:
                    r=steps(c); vi(len(r))
                    for q in r: vi(2*q if q>=0 else -2*q-1)
                x.pop('cells'); x['cell_bytes']=base64.b64encode(bytes(o)).decode()
            elif cells_flag:
                x.pop('cells'); x['cell_steps']=[steps(c) for c in cells]
        if values and all(v==int(v) for v in vals):
            p=0; s=[]
            for v in vals: s.append(int(v-p)); p=v
            x.pop('values_ms',None); x['value_steps']=s
        if derive:
            if der_s: x.pop('samples')
            if der_sum: x.pop('sum_ms')
        out.append(x)
    tl['transactions']=out
    return b
cells_flag=True
row('cells as `cell_steps`', variant(cells=True))
row('+ `value_steps`', variant(cells=True, values=True))
row('+ samples and sums left out where the cells give them (python model)', variant(cells=True, values=True, derive=True))
row('**this branch** (`runlens import`)', new)
row('same, cells as base64 of binary varints (not JSON numbers)', variant(values=True, derive=True, b64=True))
row('same as this branch, 60 s buckets (61)', variant(cells=True, values=True, derive=True, merge=2))
row('60 s buckets, base64 varints', variant(values=True, derive=True, b64=True, merge=2))
row('no cells at all (counts, sums, values; not exact), 30 s', variant(values=True, nocells=True))
def floor(merge):
    B=(121+merge-1)//merge; bits=0
    for x in old['runs'][0]['timeline']['transactions']:
        cnt={}
        for c in x['cells']:
            for i in range(0,len(c),2): cnt[c[i]]=cnt.get(c[i],0)+c[i+1]
        bits+=sum((lgamma(m+B)-lgamma(m+1)-lgamma(B))/log(2) for m in cnt.values())
    return bits/8
f30=floor(1); f60=floor(2); nb=gz(bare)
print(f'| floor: bundle without timeline + exact cells alone, 30 s | {nb+f30:,.0f} | {(nb+f30)/BEFORE:.2f} |')
print(f'| floor, 60 s | {nb+f60:,.0f} | {(nb+f60)/BEFORE:.2f} |')
def approx(k):
    b=copy.deepcopy(old); tl=b['runs'][0]['timeline']
    for x in tl['transactions']:
        vals=x['values_ms']; idx=[math.floor(math.log2(max(v,1))*k) for v in vals]
        keys=sorted(set(idx)); pos={q:i for i,q in enumerate(keys)}
        nc=[]
        for c in x['cells']:
            m={}
            for i in range(0,len(c),2): j=pos[idx[c[i]]]; m[j]=m.get(j,0)+c[i+1]
            nc.append([q for j in sorted(m) for q in (j,m[j])])
        x.pop('cells'); x['cell_steps']=[steps(c) for c in nc]
        x['values_ms']=[2**((q+0.5)/k) for q in keys]
        if [sum(c[1::2]) for c in nc]==x['samples']: x.pop('samples')
        x['exact']=False; x['relative_error']=2**(1/(2*k))-1
    return b
for k in (8,4):
    row(f'not exact: every transaction in log buckets, {k} per octave, in steps (30 s)', approx(k))
b=copy.deepcopy(old)
for x in b['runs'][0]['timeline']['transactions']:
    for k in ('cells','values_ms','exact','relative_error'): x.pop(k,None)
row('no cells, no values (counts, errors, sums)', b)
