"""Minimal reader of R's XDR serialization (format 2/3) for the types in preventr's sysdata.rda."""
import bz2, gzip, lzma, struct, sys
def open_rda(path):
    raw=open(path,'rb').read()
    if raw[:3]==b'BZh': raw=bz2.decompress(raw)
    elif raw[:2]==b'\x1f\x8b': raw=gzip.decompress(raw)
    elif raw[:6]==b'\xfd7zXZ\x00': raw=lzma.decompress(raw)
    assert raw[:5] in (b'RDX2\n',b'RDX3\n'), raw[:5]
    return Reader(raw[5:]).top()
class Reader:
    def __init__(s,b): s.b=b; s.p=0; s.refs=[]
    def i(s):
        v=struct.unpack('>i',s.b[s.p:s.p+4])[0]; s.p+=4; return v
    def d(s,n):
        v=struct.unpack('>%dd'%n,s.b[s.p:s.p+8*n]); s.p+=8*n; return list(v)
    def top(s):
        assert s.b[:2]==b'X\n'; s.p=2
        ver=s.i(); s.i(); s.i()
        if ver==3: n=s.i(); s.p+=n
        return s.item()
    def item(s):
        flags=s.i(); t=flags&0xff; hasattr_=flags&(1<<9); hastag=flags&(1<<10)
        if t==254: return None  # NILVALUE
        if t in (242,253,252,251): return ('special',t)  # empty env, global env, unbound, missingarg
        if t==255:  # REFSXP
            idx=flags>>8
            if idx==0: idx=s.i()
            return s.refs[idx-1]
        if t==250: return ('special',t)
        if t==238:  # ALTREP
            info=s.item(); state=s.item(); attr=s.item()
            return {'t':'altrep','info':info,'v':state,'attr':pairlist(attr)}
        if t==249: raise Exception('package env')
        if t==248: raise Exception('namespace')
        if t==4:  # ENVSXP
            s.i(); env={'env':True}; s.refs.append(env)
            env['enclos']=s.item(); env['frame']=s.item(); env['hashtab']=s.item(); env['attr']=s.item(); return env
        if t in (2,3,5,6,17):  # LISTSXP, CLOSXP, PROMSXP, LANGSXP, DOTSXP
            attr=s.item() if hasattr_ else None
            tag=s.item() if hastag else None
            car=s.item(); cdr=s.item()
            return {'pair':t,'tag':tag,'car':car,'cdr':cdr,'attr':attr}
        if t==9:  # CHARSXP
            n=s.i()
            if n==-1: return None
            v=s.b[s.p:s.p+n].decode('utf8','replace'); s.p+=n; return v
        if t in (10,13):
            n=s.i(); v=[s.i() for _ in range(n)]
        elif t==14:
            n=s.i(); v=s.d(n)
        elif t==16:
            n=s.i(); v=[s.item() for _ in range(n)]
        elif t in (19,20):
            n=s.i(); v=[s.item() for _ in range(n)]
        elif t==15:
            n=s.i(); v=s.d(2*n)
        elif t==24:
            n=s.i(); v=s.b[s.p:s.p+n]; s.p+=n
        elif t==1:
            r=s.item(); s.refs.append(r); return r
        else:
            raise Exception('type %d at %d'%(t,s.p))
        attr=s.item() if hasattr_ else None
        return {'t':t,'v':v,'attr':pairlist(attr)}
def pairlist(p):
    out={}
    while p and isinstance(p,dict) and 'pair' in p:
        tg=p['tag']; out[(tg['sym'] if isinstance(tg,dict) else tg)]=p['car']; p=p['cdr']
    return out
def names_of(x): 
    n=x['attr'].get('names'); return n['v'] if n else None
if __name__=='__main__':
    top=open_rda(sys.argv[1])
    print(pairlist(top).keys())
